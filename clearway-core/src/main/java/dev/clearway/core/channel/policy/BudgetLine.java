package dev.clearway.core.channel.policy;

/**
 * The query demand one candidate rule would put on its channel over the recorded history: the peak
 * number of recovery calls planned within one second under the current and under the candidate
 * policy, against the candidate rule's {@code query_qps}.
 *
 * @param attempts recorded attempts the candidate rule matches
 * @param recordedCalls recovery calls those attempts actually made
 * @param plannedCalls recovery calls the candidate would plan for them
 * @param currentPeakPerSecond the same attempts' peak under the current policy (0 if none applied)
 */
public record BudgetLine(
    RuleMatch match,
    int queryQps,
    int attempts,
    long recordedCalls,
    long plannedCalls,
    int currentPeakPerSecond,
    int candidatePeakPerSecond) {

  /** Whether the candidate's planned peak exceeds the rule's own budget. */
  public boolean exceeded() {
    return candidatePeakPerSecond > queryQps;
  }
}
