package dev.clearway.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Redis unreachable (a closed port): no lock, each node's share of the budget, both counted. */
class RedisDownTest {
  static final String CLOSED_PORT = "redis://127.0.0.1:1";

  @Test
  void theLockDegradesToNoLockQuickly() {
    try (RedisLink link = RedisLink.of(CLOSED_PORT)) {
      RedisEntryLock lock = RedisEntryLock.withDefaultTtl(link);
      GoalKey goal = new GoalKey("m1", 1, "renewal", "b1");
      long start = System.nanoTime();
      for (int i = 0; i < 20; i++) {
        assertThat(lock.tryLock(goal, Duration.ofSeconds(1))).isEmpty();
      }
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
      assertThat(link.fallbacks(RedisLink.LOCK)).isEqualTo(20);
    }
  }

  @Test
  void legacyMarkersThatCannotBeReadAreUnknownNeverClear() {
    try (RedisLink link = RedisLink.of(CLOSED_PORT)) {
      RedisLegacyMarkers markers =
          new RedisLegacyMarkers(link, "legacy:pay:{merchant}:{user}:{scene}:{bizKey}");
      GoalKey goal = new GoalKey("m1", 1, "renewal", "b1");
      for (int i = 0; i < 5; i++) {
        assertThat(markers.probe(goal))
            .isInstanceOf(dev.clearway.core.migration.domain.LegacyAnswer.Unknown.class);
      }
      assertThat(link.fallbacks(RedisLink.MARKERS)).isEqualTo(5);
    }
  }

  @Test
  void theBudgetFallsBackToEachNodesShare() throws Exception {
    int budget = 20;
    try (RedisLink a = RedisLink.of(CLOSED_PORT);
        RedisLink b = RedisLink.of(CLOSED_PORT)) {
      List<Long> granted =
          Permits.take(
              List.of(new RedisCallBudget(a, 2), new RedisCallBudget(b, 2)), 7, budget, 3, 2_200);

      Permits.assertWithinBudget(granted, budget);
      assertThat(a.fallbacks(RedisLink.BUDGET)).isPositive();
      assertThat(b.fallbacks(RedisLink.BUDGET)).isPositive();
      assertThat(new RedisCallBudget(a, 3).shareOf(20)).isEqualTo(6);
      assertThat(new RedisCallBudget(a, 50).shareOf(20)).isEqualTo(1);
    }
  }
}
