package dev.clearway.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Two nodes share one account's budget through the machine's Redis. */
@Tag("redis")
class RedisCallBudgetTest {
  private static final String URL =
      System.getProperty("clearway.redis.url", "redis://127.0.0.1:6379");
  private static final int BUDGET = 40;

  @Test
  void twoNodesTogetherStayWithinTheBudgetInEveryCalendarSecond() throws Exception {
    long account = ThreadLocalRandom.current().nextLong(1_000_000, Long.MAX_VALUE);
    try (RedisLink a = RedisLink.of(URL);
        RedisLink b = RedisLink.of(URL)) {
      assertThat(a.awaitConnected(Duration.ofSeconds(20))).isTrue();
      assertThat(b.awaitConnected(Duration.ofSeconds(20))).isTrue();
      List<Long> granted =
          Permits.take(
              List.of(new RedisCallBudget(a, 2), new RedisCallBudget(b, 2)),
              account,
              BUDGET,
              6,
              3_200);

      assertThat(a.fallbacks(RedisLink.BUDGET) + b.fallbacks(RedisLink.BUDGET)).isZero();
      Permits.assertWithinBudget(granted, BUDGET);
      // Both nodes were busy all along: the shared budget was used, not each node's half.
      assertThat(granted.size()).isGreaterThan((int) (BUDGET * 2.5));
    }
  }
}
