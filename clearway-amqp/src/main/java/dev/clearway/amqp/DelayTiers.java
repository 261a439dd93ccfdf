package dev.clearway.amqp;

import java.time.Duration;
import java.util.List;

/**
 * RabbitMQ has no delayed delivery of its own: a wake-up waits in a durable delay queue whose
 * message TTL is its tier, then dead-letters into the work queue. A delay is rounded up to the
 * smallest tier that holds it (a wake-up is never early by the tiers, at most late by the gap to
 * the tier); a delay beyond the largest tier waits the largest tier and is re-delayed by the
 * consumer, which finds it early.
 */
public final class DelayTiers {
  private final List<Duration> tiers;

  private DelayTiers(List<Duration> tiers) {
    if (tiers.isEmpty()) {
      throw new IllegalArgumentException("at least one delay tier");
    }
    this.tiers = List.copyOf(tiers);
  }

  /** 1 s, 5 s, 30 s, 2 min, 10 min, 1 h. */
  public static DelayTiers standard() {
    return of(
        Duration.ofSeconds(1),
        Duration.ofSeconds(5),
        Duration.ofSeconds(30),
        Duration.ofMinutes(2),
        Duration.ofMinutes(10),
        Duration.ofHours(1));
  }

  /** Tiers in ascending order. */
  public static DelayTiers of(Duration... tiers) {
    for (int i = 1; i < tiers.length; i++) {
      if (tiers[i].compareTo(tiers[i - 1]) <= 0) {
        throw new IllegalArgumentException("delay tiers must ascend: " + List.of(tiers));
      }
    }
    return new DelayTiers(List.of(tiers));
  }

  public List<Duration> all() {
    return tiers;
  }

  /** The smallest tier at least as long as {@code delay}, or the largest. */
  public Duration tierFor(Duration delay) {
    for (Duration tier : tiers) {
      if (tier.compareTo(delay) >= 0) {
        return tier;
      }
    }
    return tiers.get(tiers.size() - 1);
  }
}
