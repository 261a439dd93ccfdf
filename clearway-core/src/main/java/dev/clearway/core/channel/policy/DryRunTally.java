package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A dry run in progress: attempts are added one at a time, in any number of pages, and the report
 * is the same as {@link DryRun#run} over the same attempts in the same order. It keeps counts, the
 * first sample ids of each finding and the planned calls per second of each candidate rule; never
 * the attempts themselves. Not thread-safe.
 */
public final class DryRunTally {
  private final RecoveryPolicy current;
  private final RecoveryPolicy candidate;
  private final Map<String, RecoveryCapabilities> channels;
  private final Instant asOf;
  private final DryRunFinding.Collector unmatched = new DryRunFinding.Collector();
  private final DryRunFinding.Collector empty = new DryRunFinding.Collector();
  private final DryRunFinding.Collector changed = new DryRunFinding.Collector();
  private final DryRunFinding.Collector pastMaxAge = new DryRunFinding.Collector();
  private final DryRunFinding.Collector lateResolved = new DryRunFinding.Collector();
  private final Map<RuleMatch, Budget> budgets = new LinkedHashMap<>();
  private int total;

  /**
   * @param asOf the end of the whole history to be added (see {@link DryRunReport#asOf}): an
   *     unresolved attempt is judged against it as soon as it is added
   */
  DryRunTally(
      RecoveryPolicy current,
      RecoveryPolicy candidate,
      Map<String, RecoveryCapabilities> channels,
      Instant asOf) {
    this.current = current;
    this.candidate = candidate;
    this.channels = Map.copyOf(channels);
    this.asOf = asOf;
  }

  /** Judges one recorded attempt against the current and the candidate policy. */
  public void add(RecordedAttempt a) {
    total++;
    Optional<PolicyRule> next = candidate.ruleFor(a.channel(), a.paymentMethod(), a.operation());
    if (next.isEmpty()) {
      unmatched.add(a.attemptId());
      return;
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
    if (a.resolvedAt() == null && asOf != null && giveUp.isBefore(asOf)) {
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

  /** The report over every attempt added so far. */
  public DryRunReport report() {
    return new DryRunReport(
        current.version(),
        candidate.version(),
        total,
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
