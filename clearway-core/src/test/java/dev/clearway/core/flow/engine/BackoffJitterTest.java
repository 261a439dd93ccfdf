package dev.clearway.core.flow.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.testing.Gen;
import dev.clearway.core.testing.SeededProperty;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The jitter of a retry: drawn uniformly from the whole window [exp/2, exp], both ends included, by
 * the SplitMix64 finaliser of (flow id · 31 + retry count), so that a run replays from its seed and
 * flows scheduled together spread out. The JDK's {@link SplittableRandom} is the reference: its
 * first draw from seed s is SplitMix64's finaliser of s + the golden gamma.
 */
class BackoffJitterTest {
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

  private static EngineConfig config(long baseMillis, long capMillis) {
    return new EngineConfig(
        Duration.ofSeconds(30),
        Duration.ofMillis(baseMillis),
        Duration.ofMillis(capMillis),
        12,
        Duration.ofMinutes(30),
        Duration.ofSeconds(5),
        100,
        Duration.ofSeconds(5));
  }

  private static long delayMillis(Backoff backoff, long flowId, int retryCount) {
    return Duration.between(NOW, backoff.next(flowId, retryCount, false, NOW)).toMillis();
  }

  /** SplitMix64's finaliser of {@code z}, computed by the JDK. */
  private static long splitMix64(long z) {
    return new SplittableRandom(z - GOLDEN_GAMMA).nextLong();
  }

  @Test
  void theReferenceIsSplitMix64() {
    // the published first output of SplitMix64 seeded with 0
    assertThat(splitMix64(GOLDEN_GAMMA)).isEqualTo(0xe220a8397b1dcdafL);
  }

  @Test
  void theJitterReachesBothEndsOfItsWindow() {
    for (long base : new long[] {2, 4, 10}) {
      Backoff backoff = new Backoff(config(base, base));
      TreeSet<Long> seen = new TreeSet<>();
      for (long flowId = 1; flowId <= 300; flowId++) {
        seen.add(delayMillis(backoff, flowId, 0));
      }
      TreeSet<Long> window = new TreeSet<>();
      for (long d = base / 2; d <= base; d++) {
        window.add(d);
      }
      assertThat(seen).as("base %d ms", base).isEqualTo(window);
    }
  }

  record Case(long baseMillis, long capMillis, long flowId, int retryCount) {}

  @Test
  void theDelayIsHalfTheExponentialDelayPlusSplitMix64JitterOverTheRestOfIt() {
    SeededProperty.of(
            "backoffJitter",
            r -> {
              long base = Gen.between(r, 1, 10_000);
              // the cap is reached within 30 retries: base · 2^30 exceeds it
              long cap = base + (long) (r.nextDouble() * Math.min(1_000_000_000L, base << 30));
              return new Case(base, cap, r.nextLong(), Gen.between(r, 0, 40));
            })
        .check(
            400,
            c -> {
              long exp =
                  BigInteger.valueOf(c.baseMillis())
                      .shiftLeft(c.retryCount())
                      .min(BigInteger.valueOf(c.capMillis()))
                      .longValueExact();
              long jitter =
                  Math.floorMod(splitMix64(c.flowId() * 31 + c.retryCount()), exp / 2 + 1);
              Backoff backoff = new Backoff(config(c.baseMillis(), c.capMillis()));
              assertThat(delayMillis(backoff, c.flowId(), c.retryCount()))
                  .isEqualTo(exp / 2 + jitter);
            });
  }
}
