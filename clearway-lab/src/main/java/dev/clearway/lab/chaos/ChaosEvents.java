package dev.clearway.lab.chaos;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.port.EngineEvents;
import java.util.concurrent.atomic.AtomicLong;

/** Counters for the chaos progress display. */
final class ChaosEvents implements EngineEvents {
  final AtomicLong transitions = new AtomicLong();
  final AtomicLong casIdempotent = new AtomicLong();
  final AtomicLong casContradiction = new AtomicLong();
  final AtomicLong reschedules = new AtomicLong();
  final AtomicLong escalations = new AtomicLong();
  final AtomicLong freezes = new AtomicLong();
  final AtomicLong scannerHits = new AtomicLong();
  final AtomicLong refundsBlocked = new AtomicLong();
  final AtomicLong leasesLost = new AtomicLong();

  @Override
  public void transitioned(FlowStatus from, FlowStatus to) {
    transitions.incrementAndGet();
  }

  @Override
  public void casConflict(FlowStatus intended, FlowStatus found, String outcome) {
    ("CONTRADICTION".equals(outcome) ? casContradiction : casIdempotent).incrementAndGet();
  }

  @Override
  public void rescheduled(FlowStatus status, String errorCode) {
    reschedules.incrementAndGet();
  }

  @Override
  public void escalated(long flowId, FlowStatus status, String errorCode) {
    escalations.incrementAndGet();
  }

  @Override
  public void frozen(long flowId, String reason) {
    freezes.incrementAndGet();
  }

  @Override
  public void refundBlockedByBizSuccess(long flowId) {
    refundsBlocked.incrementAndGet();
  }

  @Override
  public void leaseLost(String table) {
    leasesLost.incrementAndGet();
  }

  @Override
  public void scannerRound(int hits, long elapsedMillis) {
    scannerHits.addAndGet(hits);
  }
}
