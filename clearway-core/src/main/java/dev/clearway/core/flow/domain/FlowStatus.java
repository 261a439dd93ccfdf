package dev.clearway.core.flow.domain;

/**
 * The states of one payment attempt (CLOSED: ended without payment).
 *
 * <p>Every non-terminal state names who finds it, which fact decides, its backoff and its exit; see
 * ARCHITECTURE.md, "Non-terminal states".
 */
public enum FlowStatus {
  /** Row exists, order numbers derived; no payment call has been made. */
  WAIT_PAY(false),
  /** Payment stage entered; the wallet may or may not have charged. */
  PAYING(false),
  /** The wallet definitely did not charge; this attempt is over. */
  PAY_FAIL(true),
  /** The wallet charged; the business result is not yet confirmed. */
  PAYED(false),
  /** The business goal was completed and attributed to this attempt's trade order. */
  BIZ_SUCCESS(true),
  /** The compensation refund was decided; its result is not yet confirmed. */
  REFUNDING(false),
  /** The compensation refund succeeded. */
  REFUNDED(true),
  /** Closed before any payment side effect could exist. */
  CLOSED(true);

  private final boolean terminal;

  FlowStatus(boolean terminal) {
    this.terminal = terminal;
  }

  public boolean isTerminal() {
    return terminal;
  }

  /** A definite failure of the attempt: the goal may start a new attempt afterwards. */
  public boolean isDefiniteFailure() {
    return this == PAY_FAIL || this == CLOSED;
  }
}
