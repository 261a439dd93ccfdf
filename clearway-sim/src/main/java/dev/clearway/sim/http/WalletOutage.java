package dev.clearway.sim.http;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A planned wallet outage: until its end every wallet API request is answered 503 without being
 * executed. A new outage replaces the previous one.
 */
public final class WalletOutage {
  private final Clock clock;
  private volatile Instant until = Instant.MIN;

  public WalletOutage(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Starts an outage of {@code length} from now (zero ends one); answers its end. */
  public Instant beginFor(Duration length) {
    if (length.isNegative()) {
      throw new IllegalArgumentException("an outage cannot last a negative time");
    }
    Instant end = clock.instant().plus(length);
    until = end;
    return end;
  }

  /** Whether the wallet is down now. */
  public boolean active() {
    return clock.instant().isBefore(until);
  }

  /** The end of the current or last outage; {@link Instant#MIN} if there was none. */
  public Instant until() {
    return until;
  }
}
