package dev.clearway.sim;

/** Faults of the simulated business service, keyed by trade order (or by goal for ELSEWHERE). */
public enum BusinessFault {
  NONE,
  /** The grant committed, the response was lost. */
  RESPONSE_LOST,
  /** The service never completes the task before the deadline. */
  NEVER_COMPLETES,
  /** The grant commits a while after the call (if still before the deadline). */
  COMPLETES_LATER,
  /** The first calls fail with 5xx and do nothing. */
  UNAVAILABLE,
  /** The first fact reads fail. */
  FACT_UNREADABLE,
  /** The grant committed and the advancing worker died before writing the state. */
  CRASH_AFTER_GRANT
}
