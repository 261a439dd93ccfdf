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

  /**
   * Registers the merchant's two series at zero ({@code response}, {@code notification}), so that a
   * rule on the counter sees a series before the first unknown serial.
   */
  public static void register(MeterRegistry registry, String mchid) {
    counter(registry, mchid, "response");
    counter(registry, mchid, "notification");
  }

  @Override
  public void unknownSerial(String mchid, String kind) {
    counter(registry, mchid, kind).increment();
  }

  private static Counter counter(MeterRegistry registry, String mchid, String kind) {
    return Counter.builder("clearway.wechat.unknown.serial")
        .description("WeChat Pay answers signed under a platform serial not configured")
        .tag("mchid", mchid)
        .tag("kind", kind)
        .register(registry);
  }
}
