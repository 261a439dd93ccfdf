package dev.clearway.sharding;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore;
import java.time.Instant;

/** Refund orders of the sharding tests moved by the scanner's hand, every write at one instant. */
final class RefundMoves {
  private RefundMoves() {}

  /** {@code from} moved to {@code to} at {@code at}, leased to "refunder" unless terminal. */
  static RefundOrder move(RefundStore refunds, RefundOrder from, RefundStatus to, Instant at) {
    return refunds
        .transition(
            new RefundStore.TransitionWrite(
                from,
                to,
                null,
                at.plusSeconds(30),
                to.isTerminal() ? null : "refunder",
                new HistoryNote(TriggerSource.SCANNER, null, "TEST", 0),
                at,
                from.leaseOwner()))
        .orElseThrow();
  }
}
