package dev.clearway.core.flow.domain;

/** Whether a person has to look at a flow. Kept apart from the status: the facts do not change. */
public enum ReviewState {
  /** Automatic processing only. */
  NONE,
  /** Retry budget spent: still retried at a lower frequency, and queued for a person. */
  ESCALATED,
  /** Facts contradict each other: automatic processing stops until a person decides. */
  FROZEN;

  public boolean needsPerson() {
    return this != NONE;
  }
}
