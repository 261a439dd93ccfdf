package dev.clearway.core.channel.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a candidate policy would change over recorded history (no strategy, empty candidates,
 * affected scope, query budget jumps). A shadow computation only: producing it calls no PSP.
 *
 * @param asOf the end of the recorded history: the latest {@code createdAt} or {@code resolvedAt}
 *     in it (null for an empty history)
 * @param unmatched attempts the candidate has no rule for
 * @param emptyCandidates attempts whose candidate rule has no strategy the channel supports
 * @param changedRules attempts whose candidate rule differs from the current one in strategies or
 *     delays (or the current policy had no rule for them)
 * @param unresolvedPastMaxAge attempts still unresolved at {@code asOf} although older than the
 *     candidate rule's {@code max_unknown_age} at {@code asOf}: the candidate would have escalated
 *     them
 * @param resolvedAfterMaxAge attempts resolved, but only after the candidate rule's {@code
 *     max_unknown_age}: the candidate would have escalated them before the answer came
 * @param budgets one line per candidate rule that matched at least one attempt
 */
public record DryRunReport(
    String currentVersion,
    String candidateVersion,
    int total,
    Instant asOf,
    DryRunFinding unmatched,
    DryRunFinding emptyCandidates,
    DryRunFinding changedRules,
    DryRunFinding unresolvedPastMaxAge,
    DryRunFinding resolvedAfterMaxAge,
    List<BudgetLine> budgets) {

  public DryRunReport {
    budgets = List.copyOf(budgets);
  }

  /** The budget lines whose candidate peak exceeds the rule's {@code query_qps}. */
  public List<BudgetLine> budgetExceeded() {
    return budgets.stream().filter(BudgetLine::exceeded).toList();
  }

  /** Whether nothing in the report stands in the way of a rollout. */
  public boolean clean() {
    return unmatched.count() == 0 && emptyCandidates.count() == 0 && budgetExceeded().isEmpty();
  }

  /**
   * What stands in the way of a rollout: attempts the candidate has no rule for ({@code
   * dry_run_unmatched}) and attempts it would leave without a usable strategy ({@code
   * dry_run_empty_candidate}). A budget jump is reported but does not block (the channel's rate
   * limit still holds).
   */
  public List<PolicyProblem> blockingProblems() {
    List<PolicyProblem> blocking = new ArrayList<>();
    if (unmatched.count() > 0) {
      blocking.add(
          new PolicyProblem(
              "dry_run_unmatched",
              PolicyProblem.POLICY_LEVEL,
              unmatched.count() + " recorded attempts match no rule"));
    }
    if (emptyCandidates.count() > 0) {
      blocking.add(
          new PolicyProblem(
              "dry_run_empty_candidate",
              PolicyProblem.POLICY_LEVEL,
              emptyCandidates.count() + " recorded attempts would have no usable strategy"));
    }
    return blocking;
  }

  /** A plain-text rendering for the audit trail and operators, one finding per line. */
  public String toText() {
    StringBuilder sb = new StringBuilder();
    sb.append("dry run of ")
        .append(candidateVersion)
        .append(" against ")
        .append(currentVersion)
        .append(" over ")
        .append(total)
        .append(" attempts as of ")
        .append(asOf)
        .append('\n');
    line(sb, "unmatched", unmatched);
    line(sb, "empty_candidates", emptyCandidates);
    line(sb, "changed_rules", changedRules);
    line(sb, "unresolved_past_max_age", unresolvedPastMaxAge);
    line(sb, "resolved_after_max_age", resolvedAfterMaxAge);
    for (BudgetLine b : budgets) {
      sb.append("budget ")
          .append(b.match())
          .append(": attempts=")
          .append(b.attempts())
          .append(" recorded_calls=")
          .append(b.recordedCalls())
          .append(" planned_calls=")
          .append(b.plannedCalls())
          .append(" peak_per_second current=")
          .append(b.currentPeakPerSecond())
          .append(" candidate=")
          .append(b.candidatePeakPerSecond())
          .append(" query_qps=")
          .append(b.queryQps())
          .append(b.exceeded() ? " EXCEEDED" : "")
          .append('\n');
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, String name, DryRunFinding f) {
    sb.append(name)
        .append(": ")
        .append(f.count())
        .append(" sample ")
        .append(f.sampleAttemptIds())
        .append('\n');
  }
}
