package dev.clearway.core.reconciliation.domain;

/** What the business system says of a goal. */
public enum BusinessStatus {
  /** The goal was fulfilled (once). */
  DONE,
  /** The goal was not fulfilled. */
  NOT_DONE,
  /** The business system gave no definite answer. */
  UNKNOWN
}
