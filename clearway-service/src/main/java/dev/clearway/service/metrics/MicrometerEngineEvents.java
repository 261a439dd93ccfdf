package dev.clearway.service.metrics;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.port.EngineEvents;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The engine's events as Micrometer meters. Every name starts with {@code clearway}; tags are small
 * fixed sets (states, call kinds, result classes, outcomes). The meters that alert rules and the
 * dashboard read are registered at zero when the service starts ({@link EngineMetersAtStart}), so a
 * rule never waits on a series that appears only with the first event.
 */
public final class MicrometerEngineEvents implements EngineEvents {
  private final MeterRegistry registry;
  private final Timer scannerRounds;

  public MicrometerEngineEvents(MeterRegistry registry) {
    this.registry = registry;
    this.scannerRounds =
        Timer.builder("clearway.scanner.round")
            .description("Scanner rounds and their duration")
            .publishPercentiles(0.5, 0.95)
            .register(registry);
    EngineMetersAtStart.register(registry, this::dwell);
  }

  @Override
  public void transitioned(FlowStatus from, FlowStatus to, Duration dwell) {
    registry.counter("clearway.transitions", "from", from.name(), "to", to.name()).increment();
    dwell(from).record(dwell);
  }

  private Timer dwell(FlowStatus state) {
    return Timer.builder("clearway.state.dwell")
        .description("Time a flow spent in a state before leaving it")
        .tag("state", state.name())
        .publishPercentiles(0.5, 0.95)
        .register(registry);
  }

  @Override
  public void casConflict(FlowStatus intended, FlowStatus found, String outcome) {
    registry
        .counter(
            "clearway.cas.conflicts",
            "outcome",
            outcome,
            "intended",
            intended.name(),
            "found",
            found.name())
        .increment();
  }

  @Override
  public void externalCall(String kind, String resultClass) {
    registry.counter("clearway.external.calls", "kind", kind, "result", resultClass).increment();
  }

  @Override
  public void rescheduled(FlowStatus status, String errorCode) {
    registry.counter("clearway.reschedules", "state", status.name()).increment();
  }

  @Override
  public void escalated(long flowId, FlowStatus status, String errorCode) {
    registry.counter("clearway.escalations", "state", status.name()).increment();
  }

  @Override
  public void frozen(long flowId, String reason) {
    registry.counter("clearway.freezes").increment();
  }

  @Override
  public void refundBlockedByBizSuccess(long flowId) {
    registry.counter("clearway.refunds.blocked_by_biz_success").increment();
  }

  @Override
  public void leaseLost(String table) {
    registry.counter("clearway.lease.lost", "table", table).increment();
  }

  @Override
  public void scannerRound(int hits, long elapsedMillis) {
    scannerRounds.record(Duration.ofMillis(elapsedMillis));
    registry.counter("clearway.scanner.hits").increment(hits);
  }
}
