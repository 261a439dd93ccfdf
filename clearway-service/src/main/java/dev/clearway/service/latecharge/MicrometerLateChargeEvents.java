package dev.clearway.service.latecharge;

import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.LateChargeEvents;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * Late-charge checks and the sweep as Micrometer meters: {@code
 * clearway.late_charge.checks{outcome}}, {@code clearway.late_charge.suspicions{source,created}},
 * {@code clearway.late_charge.sweep.queries{stage,result}}, {@code
 * clearway.late_charge.sweep.skipped}, {@code clearway.late_charge.contradictions}, {@code
 * clearway.lease.lost{table}}; wallet calls join {@code clearway.external.calls} (kinds
 * LATE_CHARGE_QUERY, LATE_CHARGE_SWEEP_QUERY).
 */
public final class MicrometerLateChargeEvents implements LateChargeEvents {
  private final MeterRegistry registry;
  private final Timer scannerRounds;

  public MicrometerLateChargeEvents(MeterRegistry registry) {
    this.registry = registry;
    this.scannerRounds =
        Timer.builder("clearway.late_charge.scanner.round")
            .description("Late-charge scanner rounds and their duration")
            .register(registry);
  }

  @Override
  public void suspected(SuspicionSource source, boolean created) {
    registry
        .counter(
            "clearway.late_charge.suspicions",
            "source",
            source.name(),
            "created",
            String.valueOf(created))
        .increment();
  }

  @Override
  public void checked(String outcome) {
    registry.counter("clearway.late_charge.checks", "outcome", outcome).increment();
  }

  @Override
  public void externalCall(String kind, String resultClass) {
    registry.counter("clearway.external.calls", "kind", kind, "result", resultClass).increment();
  }

  @Override
  public void leaseLost(String table) {
    registry.counter("clearway.lease.lost", "table", table).increment();
  }

  @Override
  public void swept(Duration stage, String resultClass) {
    registry
        .counter(
            "clearway.late_charge.sweep.queries", "stage", stage.toString(), "result", resultClass)
        .increment();
  }

  @Override
  public void sweepSkipped(Duration stage, long flows) {
    registry
        .counter("clearway.late_charge.sweep.skipped", "stage", stage.toString())
        .increment(flows);
  }

  @Override
  public void contradiction(long flowId) {
    registry.counter("clearway.late_charge.contradictions").increment();
  }

  @Override
  public void scannerRound(int hits, long elapsedMillis) {
    scannerRounds.record(Duration.ofMillis(elapsedMillis));
    registry.counter("clearway.late_charge.scanner.hits").increment(hits);
  }
}
