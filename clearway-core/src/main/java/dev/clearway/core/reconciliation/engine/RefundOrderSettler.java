package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleRefundSucceeded;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.refund.port.RefundStore.RescheduleWrite;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Instant;
import java.util.Optional;

/**
 * Settles a refund order as succeeded the way its own advancer does: it takes the refund's lease
 * (free or expired only, so never under a worker that is sending or querying it), checks the
 * version the repair was decided on, and writes the legal transition to SUCCESS under that lease.
 */
final class RefundOrderSettler {
  private final RefundStore refunds;
  private final LeaseTokens leases;

  RefundOrderSettler(RefundStore refunds, LeaseTokens leases) {
    this.refunds = refunds;
    this.leases = leases;
  }

  RepairOutcome settle(SettleRefundSucceeded c, Instant now) {
    Optional<RefundOrder> read = refunds.find(c.refundOrderId());
    if (read.isEmpty()) {
      return RepairOutcome.refused("refund order " + c.refundOrderId() + " not found");
    }
    RefundOrder before = read.get();
    if (before.status() == RefundStatus.SUCCESS) {
      return RepairOutcome.alreadyDone("refund already SUCCESS");
    }
    if (!RefundTransitions.isLegal(before.status(), RefundStatus.SUCCESS)) {
      return RepairOutcome.refused("refund " + before.status() + " cannot become SUCCESS");
    }
    if (before.version() != c.version()) {
      return RepairOutcome.lostRace("refund moved to version " + before.version());
    }
    Lease lease = leases.next();
    if (!refunds.claim(before.id(), lease, now)) {
      return RepairOutcome.lostRace("refund " + before.id() + " is held by its worker");
    }
    RefundOrder held = refunds.find(before.id()).orElseThrow();
    if (held.version() != c.version() || held.status() != before.status()) {
      release(held, lease, now);
      return RepairOutcome.lostRace("refund moved while its lease was taken");
    }
    HistoryNote note =
        new HistoryNote(TriggerSource.RECONCILIATION, "recon-" + held.id(), "RECON_SETTLED", 0);
    Optional<RefundOrder> written =
        refunds.transition(
            new TransitionWrite(
                held, RefundStatus.SUCCESS, null, now, null, note, now, lease.token()));
    if (written.isEmpty()) {
      return RepairOutcome.lostRace("refund moved while it was repaired");
    }
    return RepairOutcome.applied("refund " + held.status() + " -> SUCCESS");
  }

  /** Hands a refund taken but not moved back to its scanner, due at once. */
  private void release(RefundOrder held, Lease lease, Instant now) {
    refunds.reschedule(
        new RescheduleWrite(
            held, held.retryCount(), now, held.lastErrorCode(), now, lease.token()));
  }
}
