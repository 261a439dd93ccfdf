package dev.clearway.service.refund;

import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundEvents;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * The refund engine's events as Micrometer meters. Wallet calls join the engine's {@code
 * clearway.external.calls} (kinds AFTER_SALE_REFUND, AFTER_SALE_REFUND_QUERY); the rest are named
 * {@code clearway.after_sale_refunds.*}.
 */
public final class MicrometerRefundEvents implements RefundEvents {
  private final MeterRegistry registry;
  private final Timer scannerRounds;

  public MicrometerRefundEvents(MeterRegistry registry) {
    this.registry = registry;
    this.scannerRounds =
        Timer.builder("clearway.after_sale_refunds.scanner.round")
            .description("Refund scanner rounds and their duration")
            .register(registry);
  }

  @Override
  public void created(long refundId, long amount) {
    registry.counter("clearway.after_sale_refunds.created").increment();
  }

  @Override
  public void transitioned(RefundStatus from, RefundStatus to) {
    registry
        .counter("clearway.after_sale_refunds.transitions", "from", from.name(), "to", to.name())
        .increment();
  }

  @Override
  public void casConflict(RefundStatus intended, RefundStatus found, String outcome) {
    registry
        .counter(
            "clearway.after_sale_refunds.cas.conflicts",
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
  public void rescheduled(RefundStatus status, String errorCode) {
    registry.counter("clearway.after_sale_refunds.reschedules", "state", status.name()).increment();
  }

  @Override
  public void abnormal(long refundId, String errorCode) {
    registry.counter("clearway.after_sale_refunds.abnormal").increment();
  }

  @Override
  public void leaseLost(String table) {
    registry.counter("clearway.lease.lost", "table", table).increment();
  }

  @Override
  public void scannerRound(int hits, long elapsedMillis) {
    scannerRounds.record(Duration.ofMillis(elapsedMillis));
    registry.counter("clearway.after_sale_refunds.scanner.hits").increment(hits);
  }
}
