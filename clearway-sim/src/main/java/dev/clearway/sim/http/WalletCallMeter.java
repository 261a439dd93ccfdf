package dev.clearway.sim.http;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Counts the wallet API requests per epoch second over the last {@link #WINDOW_SECONDS} seconds: a
 * ring of counters indexed by the second modulo the window, each slot remembering which second it
 * counts, so recording is one short synchronized increment and old seconds are overwritten.
 */
public final class WalletCallMeter {
  /** How many seconds back the meter remembers. */
  public static final int WINDOW_SECONDS = 600;

  /** The requests of one epoch second. */
  public record Second(long second, long calls) {}

  private final Clock clock;
  private final long[] seconds = new long[WINDOW_SECONDS];
  private final long[] counts = new long[WINDOW_SECONDS];

  public WalletCallMeter(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    java.util.Arrays.fill(seconds, Long.MIN_VALUE);
  }

  /** Counts one request in the current second. */
  public void record() {
    long now = clock.instant().getEpochSecond();
    int slot = slot(now);
    synchronized (this) {
      if (seconds[slot] != now) {
        seconds[slot] = now;
        counts[slot] = 0;
      }
      counts[slot]++;
    }
  }

  /** The seconds of the window ending now that saw at least one request, oldest first. */
  public List<Second> perSecond() {
    long now = clock.instant().getEpochSecond();
    List<Second> out = new ArrayList<>();
    synchronized (this) {
      for (long s = now - WINDOW_SECONDS + 1; s <= now; s++) {
        int slot = slot(s);
        if (seconds[slot] == s && counts[slot] > 0) {
          out.add(new Second(s, counts[slot]));
        }
      }
    }
    return out;
  }

  /** Every request of the window ending now. */
  public long total() {
    return perSecond().stream().mapToLong(Second::calls).sum();
  }

  private static int slot(long second) {
    return (int) Math.floorMod(second, (long) WINDOW_SECONDS);
  }
}
