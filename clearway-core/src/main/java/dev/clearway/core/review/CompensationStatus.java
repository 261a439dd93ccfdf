package dev.clearway.core.review;

/**
 * The states of a compensation (the refund of a charge found on an attempt recorded FAILED).
 * PENDING is the compensation worker's (it refunds, retried at a fixed delay); MANUAL waits for a
 * person, who refunds it again, keeps the charge, or hands it to finance. The other states are
 * final (a guard trigger holds them).
 */
public enum CompensationStatus {
  PENDING(false),
  MANUAL(false),
  /** The charge went back. */
  REFUNDED(true),
  /** A person decided the charge stands (the reason is in the command). */
  KEPT(true),
  /** Settled by finance outside the engine. */
  FINANCE(true);

  private final boolean settled;

  CompensationStatus(boolean settled) {
    this.settled = settled;
  }

  public boolean isSettled() {
    return settled;
  }
}
