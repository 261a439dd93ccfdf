package dev.clearway.core.flow.fact;

/**
 * What the business call answered. Recorded for diagnosis only: the decision always reads the
 * business fact afterwards, whatever the call said.
 */
public enum BizCallResult {
  ACCEPTED,
  ALREADY_DONE,
  REJECTED,
  UNKNOWN
}
