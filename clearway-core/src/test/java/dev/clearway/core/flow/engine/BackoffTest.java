package dev.clearway.core.flow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.runtime.Backoff;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exponential backoff: grows, is capped, is jittered within [exp/2, exp], escalates flat. */
class BackoffTest {
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration BASE = Duration.ofMillis(100);
  private static final Duration CAP = Duration.ofSeconds(10);
  private static final Duration ESCALATED = Duration.ofMinutes(30);

  private static final EngineConfig CONFIG =
      new EngineConfig(
          Duration.ofSeconds(30),
          BASE,
          CAP,
          12,
          ESCALATED,
          Duration.ofSeconds(5),
          100,
          Duration.ofSeconds(5));

  private final Backoff backoff = new Backoff(CONFIG);

  private long delayMillis(long flowId, int retryCount) {
    return Duration.between(NOW, backoff.next(flowId, retryCount, false, NOW)).toMillis();
  }

  /** The un-jittered delay the table promises: base * 2^n, capped. */
  private static long exp(int retryCount) {
    long cap = CAP.toMillis();
    if (retryCount >= 30) {
      return cap;
    }
    return Math.min(cap, BASE.toMillis() * (1L << retryCount));
  }

  @Test
  void firstRetryIsBetweenHalfTheBaseAndTheBase() {
    for (long flowId = 1; flowId <= 200; flowId++) {
      assertThat(delayMillis(flowId, 0)).isBetween(50L, 100L);
    }
  }

  @Test
  void everyDelayLiesWithinHalfExpAndExp() {
    for (long flowId = 1; flowId <= 200; flowId++) {
      for (int n = 0; n <= 40; n++) {
        assertThat(delayMillis(flowId, n))
            .as("flow %d retry %d", flowId, n)
            .isBetween(exp(n) / 2, exp(n));
      }
    }
  }

  @Test
  void delaysGrowWithTheRetryCountUntilTheCap() {
    for (long flowId = 1; flowId <= 200; flowId++) {
      // while the exponent doubles, [exp/2, exp] of retry n+1 starts where retry n's range ends
      for (int n = 1; exp(n) == 2 * exp(n - 1); n++) {
        assertThat(delayMillis(flowId, n))
            .as("flow %d retry %d", flowId, n)
            .isGreaterThanOrEqualTo(delayMillis(flowId, n - 1));
      }
    }
    assertThat(exp(6)).isEqualTo(6_400L);
    assertThat(exp(7)).isEqualTo(CAP.toMillis());
    // the lower bound itself doubles: retry 3 is always slower than retry 0 can ever be
    assertThat(delayMillis(7, 3)).isGreaterThan(exp(0));
    assertThat(delayMillis(7, 6)).isGreaterThan(exp(3));
  }

  @ParameterizedTest
  @ValueSource(ints = {7, 8, 10, 20, 29, 30, 31, 62, 63, 64, 1_000, Integer.MAX_VALUE})
  void largeRetryCountsAreCappedAndNeverOverflow(int retryCount) {
    for (long flowId = 1; flowId <= 100; flowId++) {
      assertThat(delayMillis(flowId, retryCount))
          .as("flow %d retry %d", flowId, retryCount)
          .isBetween(CAP.toMillis() / 2, CAP.toMillis());
    }
  }

  @Test
  void jitterSpreadsFlowsScheduledTogether() {
    Set<Long> delays = new HashSet<>();
    for (long flowId = 1; flowId <= 100; flowId++) {
      delays.add(delayMillis(flowId, 5));
    }
    assertThat(delays).as("100 flows at retry 5 should not share one delay").hasSizeGreaterThan(50);
  }

  @Test
  void jitterIsDeterministicPerFlowAndRetry() {
    for (long flowId = 1; flowId <= 50; flowId++) {
      for (int n = 0; n < 12; n++) {
        assertThat(backoff.next(flowId, n, false, NOW))
            .isEqualTo(new Backoff(CONFIG).next(flowId, n, false, NOW));
      }
    }
  }

  @Test
  void theDelayIsAddedToNow() {
    Instant later = NOW.plus(Duration.ofDays(3));
    assertThat(Duration.between(later, backoff.next(42, 4, false, later)).toMillis())
        .isEqualTo(delayMillis(42, 4));
  }

  @Test
  void escalatedUsesTheFlatEscalatedInterval() {
    for (int n : new int[] {0, 1, 5, 12, 13, 100, Integer.MAX_VALUE}) {
      assertThat(backoff.next(99, n, true, NOW)).isEqualTo(NOW.plus(ESCALATED));
    }
  }

  @Test
  void negativeAndExtremeFlowIdsStayWithinBounds() {
    for (long flowId : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 40}) {
      for (int n = 0; n <= 31; n++) {
        assertThat(delayMillis(flowId, n)).isBetween(exp(n) / 2, exp(n));
      }
    }
  }

  @Test
  void productionAndCompressedConfigsRespectTheirCaps() {
    for (EngineConfig config :
        new EngineConfig[] {EngineConfig.production(), EngineConfig.compressed()}) {
      Backoff b = new Backoff(config);
      long cap = config.backoffCap().toMillis();
      long base = config.backoffBase().toMillis();
      for (long flowId = 1; flowId <= 50; flowId++) {
        long first = Duration.between(NOW, b.next(flowId, 0, false, NOW)).toMillis();
        assertThat(first).isBetween(base / 2, base);
        for (int n = 0; n <= 40; n++) {
          long d = Duration.between(NOW, b.next(flowId, n, false, NOW)).toMillis();
          assertThat(d).isBetween(0L, cap);
        }
        long capped = Duration.between(NOW, b.next(flowId, 35, false, NOW)).toMillis();
        assertThat(capped).isBetween(cap / 2, cap);
      }
      assertThat(b.next(1, 3, true, NOW)).isEqualTo(NOW.plus(config.escalatedInterval()));
    }
  }
}
