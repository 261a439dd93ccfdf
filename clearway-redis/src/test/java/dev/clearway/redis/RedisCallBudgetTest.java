package dev.clearway.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
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

  @Test
  void aNodeWhoseRedisIsOnlySlowDoesNotAddItsShareToTheBudget() throws Exception {
    long account = ThreadLocalRandom.current().nextLong(1_000_000, Long.MAX_VALUE);
    URI redis = URI.create(URL);
    try (StallingProxy proxy = StallingProxy.to(redis.getHost(), redis.getPort());
        RedisLink a = RedisLink.of(URL);
        RedisLink b = RedisLink.of(proxy.url())) {
      assertThat(a.awaitConnected(Duration.ofSeconds(20))).isTrue();
      assertThat(b.awaitConnected(Duration.ofSeconds(20))).isTrue();
      Thread stalls =
          new Thread(
              () -> {
                for (int i = 0; i < 2; i++) {
                  LockSupport.parkNanos(Duration.ofMillis(800).toNanos());
                  // longer than a command's timeout, shorter than a down window
                  proxy.hold(Duration.ofMillis(600));
                }
              });
      stalls.setDaemon(true);
      stalls.start();
      List<Long> granted =
          Permits.take(
              List.of(new RedisCallBudget(a, 2), new RedisCallBudget(b, 2)),
              account,
              BUDGET,
              6,
              4_200);

      assertThat(b.fallbacks(RedisLink.BUDGET))
          .as("node b's commands timed out while its answers were held")
          .isPositive();
      Permits.assertWithinBudget(granted, BUDGET);
    }
  }
}
