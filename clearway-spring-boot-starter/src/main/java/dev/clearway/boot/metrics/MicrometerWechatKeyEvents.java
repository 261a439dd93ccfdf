package dev.clearway.boot.metrics;

import dev.clearway.psp.wechat.WechatKeyEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Counts WeChat Pay answers signed under a platform serial that is not configured: {@code
 * clearway.wechat.unknown.serial{mchid,kind}} ({@code clearway_wechat_unknown_serial_total} in
 * Prometheus), {@code kind} {@code response} or {@code notification}. A rise means WeChat Pay
 * rotated its platform key and the new one is not configured yet (see the runbook).
 */
public final class MicrometerWechatKeyEvents implements WechatKeyEvents {

  private final MeterRegistry registry;

  public MicrometerWechatKeyEvents(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void unknownSerial(String mchid, String kind) {
    Counter.builder("clearway.wechat.unknown.serial")
        .description("WeChat Pay answers signed under a platform serial not configured")
        .tag("mchid", mchid)
        .tag("kind", kind)
        .register(registry)
        .increment();
  }
}
