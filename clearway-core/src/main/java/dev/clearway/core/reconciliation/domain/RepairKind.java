package dev.clearway.core.reconciliation.domain;

/** How a difference is repaired: by the engine through a normal transition, or by a person. */
public enum RepairKind {
  /** The attempt and its flow are settled as paid (PAYING to PAYED). */
  AUTO_SETTLE_PAID,
  /** The charge on an order ended without payment goes back through a LATE_CHARGE refund. */
  AUTO_REFUND_LATE_CHARGE,
  /** The business names this trade order: the flow is confirmed (PAYED to BIZ_SUCCESS). */
  AUTO_CONFIRM_BUSINESS,
  /** The refund order is settled as succeeded (PROCESSING or ABNORMAL to SUCCESS). */
  AUTO_SETTLE_REFUND,
  /** The charge the business did not use goes back through the flow's compensation refund. */
  AUTO_REFUND_UNATTRIBUTED,
  /** Nothing yet: the PSP may still show it; a person looks once the window has passed. */
  WAIT_THEN_PERSON,
  /** A person decides; the engine opens a ticket and changes nothing. */
  NEEDS_PERSON;

  public boolean isAutomatic() {
    return switch (this) {
      case AUTO_SETTLE_PAID,
          AUTO_REFUND_LATE_CHARGE,
          AUTO_CONFIRM_BUSINESS,
          AUTO_SETTLE_REFUND,
          AUTO_REFUND_UNATTRIBUTED ->
          true;
      case WAIT_THEN_PERSON, NEEDS_PERSON -> false;
    };
  }
}
