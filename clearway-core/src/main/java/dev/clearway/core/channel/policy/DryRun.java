package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Replays recorded history against a candidate policy and reports what would change (see {@link
 * DryRunReport} for the definitions). Pure: no I/O, no clock, never calls a PSP; the same inputs
 * give the same report.
 */
public final class DryRun {

  public DryRunReport run(
      RecoveryPolicy current,
      RecoveryPolicy candidate,
      Map<String, RecoveryCapabilities> channels,
      List<RecordedAttempt> history) {
    Instant asOf = asOf(history);
    DryRunFinding.Collector unmatched = new DryRunFinding.Collector();
    DryRunFinding.Collector empty = new DryRunFinding.Collector();
    DryRunFinding.Collector changed = new DryRunFinding.Collector();
    DryRunFinding.Collector pastMaxAge = new DryRunFinding.Collector();
    DryRunFinding.Collector lateResolved = new DryRunFinding.Collector();
    Map<RuleMatch, Budget> budgets = new LinkedHashMap<>();
    for (RecordedAttempt a : history) {
      Optional<PolicyRule> next = candidate.ruleFor(a.channel(), a.paymentMethod(), a.operation());
      if (next.isEmpty()) {
        unmatched.add(a.attemptId());
        continue;
      }
      PolicyRule rule = next.get();
      RecoveryCapabilities caps = channels.get(a.channel());
      if (caps == null || rule.strategies().stream().noneMatch(s -> s.supportedBy(caps))) {
        empty.add(a.attemptId());
      }
      Optional<PolicyRule> before = current.ruleFor(a.channel(), a.paymentMethod(), a.operation());
      if (before.isEmpty() || differs(before.get(), rule)) {
        changed.add(a.attemptId());
      }
      Instant giveUp = a.createdAt().plus(rule.maxUnknownAge());
      if (a.resolvedAt() == null && giveUp.isBefore(asOf)) {
        pastMaxAge.add(a.attemptId());
      } else if (a.resolvedAt() != null && giveUp.isBefore(a.resolvedAt())) {
        lateResolved.add(a.attemptId());
      }
      Budget budget = budgets.computeIfAbsent(rule.match(), m -> new Budget(rule));
      budget.attempts++;
      budget.recordedCalls += a.recoveryCalls();
      budget.candidate.add(rule, caps, a);
      before.ifPresent(r -> budget.current.add(r, caps, a));
    }
    return new DryRunReport(
        current.version(),
        candidate.version(),
        history.size(),
        asOf,
        unmatched.finding(),
        empty.finding(),
        changed.finding(),
        pastMaxAge.finding(),
        lateResolved.finding(),
        budgets.values().stream().map(Budget::line).toList());
  }

  private static boolean differs(PolicyRule a, PolicyRule b) {
    return !a.strategies().equals(b.strategies()) || !a.delays().equals(b.delays());
  }

  private static Instant asOf(List<RecordedAttempt> history) {
    Instant latest = null;
    for (RecordedAttempt a : history) {
      latest = later(latest, a.createdAt());
      latest = later(latest, a.resolvedAt());
    }
    return latest;
  }

  private static Instant later(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || !b.isAfter(a) ? a : b;
  }

  /** The demand of the attempts one candidate rule matches. */
  private static final class Budget {
    private final PolicyRule rule;
    private final PlannedCalls candidate = new PlannedCalls();
    private final PlannedCalls current = new PlannedCalls();
    private int attempts;
    private long recordedCalls;

    Budget(PolicyRule rule) {
      this.rule = rule;
    }

    BudgetLine line() {
      return new BudgetLine(
          rule.match(),
          rule.queryQps(),
          attempts,
          recordedCalls,
          candidate.total(),
          current.peakPerSecond(),
          candidate.peakPerSecond());
    }
  }
}
