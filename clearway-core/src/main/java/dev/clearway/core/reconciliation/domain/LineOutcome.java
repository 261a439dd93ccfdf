package dev.clearway.core.reconciliation.domain;

/** The PSP's own status of the movement a statement line reports. */
public enum LineOutcome {
  /** The movement happened. */
  SUCCEEDED,
  /** The PSP still works on it (typical of refunds): not yet money moved. */
  PROCESSING
}
