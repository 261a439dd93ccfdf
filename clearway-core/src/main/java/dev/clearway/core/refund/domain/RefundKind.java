package dev.clearway.core.refund.domain;

import dev.clearway.core.flow.domain.FlowStatus;

/**
 * Why money goes back through a refund order, and which flows may have one. Both kinds use the same
 * table, numbers, state machine and amount bound; they differ only in the flow states they accept
 * when the refund is created.
 */
public enum RefundKind {
  /** A merchant's explicit after-sales refund: only after BIZ_SUCCESS. */
  AFTER_SALE,
  /**
   * A charge that landed on an order already ended without payment (PAY_FAIL after the order was
   * closed, or CLOSED): refunded, never revived. Created only after the wallet itself confirmed the
   * charge.
   */
  LATE_CHARGE;

  /**
   * Whether the requester must own the payment: a merchant refunds only its own payments; the
   * engine itself requests late-charge refunds for whichever merchant's payment was charged.
   */
  public boolean requestedByOwner() {
    return switch (this) {
      case AFTER_SALE -> true;
      case LATE_CHARGE -> false;
    };
  }

  public boolean allows(FlowStatus flowStatus) {
    return switch (this) {
      case AFTER_SALE -> flowStatus == FlowStatus.BIZ_SUCCESS;
      case LATE_CHARGE -> flowStatus == FlowStatus.PAY_FAIL || flowStatus == FlowStatus.CLOSED;
    };
  }
}
