package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The recovery calls a rule plans for recorded attempts, counted per epoch second. Pure arithmetic
 * over the schedule; nothing is called.
 *
 * <p>The plan of one attempt: the first run at {@code createdAt + delayAfter(0)}, each next run
 * {@code delayAfter(n)} later; runs stop before the attempt's {@code resolvedAt} (if any) and after
 * {@code createdAt + maxUnknownAge} (the attempt is escalated then). Each run is planned as one PSP
 * call if the rule has a usable strategy that calls the PSP ({@link RecoveryStrategy#callsPsp}),
 * else as none (waiting for a webhook or a settlement report costs no budget). At most {@link
 * #MAX_RUNS} runs per attempt are planned.
 */
final class PlannedCalls {

  static final int MAX_RUNS = 1000;

  private final Map<Long, Integer> perSecond = new HashMap<>();
  private long total;

  /** Plans one attempt under {@code rule}; {@code caps} null means the channel is unknown. */
  void add(PolicyRule rule, RecoveryCapabilities caps, RecordedAttempt attempt) {
    if (!makesCalls(rule, caps) || rule.delays().isEmpty()) {
      return;
    }
    Instant giveUp = attempt.createdAt().plus(rule.maxUnknownAge());
    Instant t = attempt.createdAt();
    for (int n = 0; n < MAX_RUNS; n++) {
      Duration delay = rule.delayAfter(n);
      if (delay.isNegative() || delay.isZero()) {
        return;
      }
      t = t.plus(delay);
      if (t.isAfter(giveUp)
          || (attempt.resolvedAt() != null && !t.isBefore(attempt.resolvedAt()))) {
        return;
      }
      perSecond.merge(t.getEpochSecond(), 1, Integer::sum);
      total++;
    }
  }

  /** The most calls planned within one second. */
  int peakPerSecond() {
    int peak = 0;
    for (int count : perSecond.values()) {
      peak = Math.max(peak, count);
    }
    return peak;
  }

  long total() {
    return total;
  }

  static boolean makesCalls(PolicyRule rule, RecoveryCapabilities caps) {
    if (caps == null) {
      return false;
    }
    for (RecoveryStrategy s : rule.strategies()) {
      if (s.callsPsp() && s.supportedBy(caps)) {
        return true;
      }
    }
    return false;
  }
}
