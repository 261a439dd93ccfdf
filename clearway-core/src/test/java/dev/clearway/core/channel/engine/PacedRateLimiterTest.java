package dev.clearway.core.channel.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** A worker's pacing wait is bounded by its lease: past it, no slot is taken and no call made. */
class PacedRateLimiterTest {
  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @Test
  void aSlotThatStartsAfterTheLeaseIsRefusedAndNotTaken() {
    PacedRateLimiter limiter = new PacedRateLimiter();
    // One call per hour: the first slot is free now, the next one an hour away.
    assertThat(limiter.tryAcquire(7, 1, Duration.ZERO)).isTrue();
    Duration backlog = limiter.backlog(7);
    assertThat(backlog).isGreaterThan(Duration.ofMillis(500));

    boolean second = limiter.acquireWithin(7, 1, NOW.plusMillis(100), CLOCK);

    assertThat(second).as("a 1 s wait does not fit in a 100 ms lease").isFalse();
    // The refused caller reserved nothing: the next free slot is where it was.
    assertThat(limiter.backlog(7)).isLessThanOrEqualTo(backlog);
  }

  @Test
  void aLeaseThatIsAlreadyOverTakesNoSlotEvenAFreeOne() {
    PacedRateLimiter limiter = new PacedRateLimiter();

    assertThat(limiter.acquireWithin(7, 1, NOW.minusMillis(1), CLOCK)).isFalse();
    assertThat(limiter.backlog(7)).isZero();
    assertThat(limiter.acquireWithin(7, 1, NOW.plusSeconds(1), CLOCK)).isTrue();
  }

  @Test
  void otherAccountsAreNotHeldUp() {
    PacedRateLimiter limiter = new PacedRateLimiter();
    assertThat(limiter.tryAcquire(1, 1, Duration.ZERO)).isTrue();

    assertThat(limiter.tryAcquire(2, 1, Duration.ZERO)).isTrue();
    assertThat(limiter.tryAcquire(1, 1, Duration.ZERO)).isFalse();
  }
}
