package dev.clearway.core.reconciliation.domain;

/** Whether a refund of a charge that must not stand was already opened for an attempt. */
public enum CompensationState {
  NONE,
  /** Opened (a compensation or a late-charge refund exists): its own state machine moves on. */
  OPEN,
  /** The money went back. */
  SETTLED;

  public boolean exists() {
    return this != NONE;
  }
}
