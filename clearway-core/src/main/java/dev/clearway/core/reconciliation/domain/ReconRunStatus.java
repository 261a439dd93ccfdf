package dev.clearway.core.reconciliation.domain;

/**
 * A run's progress. RUNNING is found again by the daily job once its lease expired (a dead node),
 * and taken over; it ends DONE or FAILED (the error says why, the next run of the day retries).
 */
public enum ReconRunStatus {
  RUNNING,
  DONE,
  FAILED
}
