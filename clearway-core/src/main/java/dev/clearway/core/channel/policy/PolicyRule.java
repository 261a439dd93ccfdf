package dev.clearway.core.channel.policy;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How attempts matching {@link #match} are recovered: the strategies in order of preference, the
 * delays between recovery runs, how long an outcome may stay unknown before the attempt is
 * escalated to reconciliation or a person, and the query budget on the channel. Immutable; the
 * lists are copies. Whether the values make sense is {@link PolicyValidator}'s job, not the
 * constructor's.
 */
public record PolicyRule(
    RuleMatch match,
    List<RecoveryStrategy> strategies,
    List<Duration> delays,
    Duration maxUnknownAge,
    int queryQps,
    int queryConcurrency) {

  public PolicyRule {
    Objects.requireNonNull(match, "match");
    Objects.requireNonNull(maxUnknownAge, "maxUnknownAge");
    strategies = List.copyOf(strategies);
    delays = List.copyOf(delays);
  }

  /**
   * The wait before the next recovery run of a task that has already run {@code attemptCount}
   * times: {@code delayAfter(0)} is the first delay (from the attempt turning UNKNOWN to the first
   * run), {@code delayAfter(1)} the second, and the last delay repeats for ever after.
   *
   * @throws IllegalArgumentException if {@code attemptCount} is negative
   * @throws IllegalStateException if the rule has no delays (a validated policy always has)
   */
  public Duration delayAfter(int attemptCount) {
    if (attemptCount < 0) {
      throw new IllegalArgumentException("attemptCount must not be negative");
    }
    if (delays.isEmpty()) {
      throw new IllegalStateException("rule " + match + " has no delays");
    }
    return delays.get(Math.min(attemptCount, delays.size() - 1));
  }
}
