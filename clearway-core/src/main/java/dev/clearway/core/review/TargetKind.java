package dev.clearway.core.review;

/** What a manual command acts on; each kind has its own state machine and its own row. */
public enum TargetKind {
  /** A pay_flow (its commands: {@link CommandKind}). */
  FLOW,
  /** An after-sales refund order. */
  REFUND_ORDER,
  /** A payment attempt whose result the engine cannot learn. */
  ATTEMPT,
  /** The refund of a charge found on an attempt recorded FAILED. */
  COMPENSATION
}
