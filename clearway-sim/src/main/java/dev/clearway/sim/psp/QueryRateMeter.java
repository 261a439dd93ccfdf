package dev.clearway.sim.psp;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the read requests (retrieve, search, query) a simulated PSP receives, per channel account
 * and per wall-clock second, so a benchmark can report the peak query rate the PSP saw.
 */
public final class QueryRateMeter {

  private final Clock clock;
  private final Map<Long, AtomicLong> perSecond = new ConcurrentHashMap<>();
  private final AtomicLong total = new AtomicLong();

  public QueryRateMeter(Clock clock) {
    this.clock = clock;
  }

  public void record() {
    long second = clock.millis() / 1000;
    perSecond.computeIfAbsent(second, s -> new AtomicLong()).incrementAndGet();
    total.incrementAndGet();
  }

  public long total() {
    return total.get();
  }

  /** The highest count in any one second. */
  public long peakPerSecond() {
    return perSecond.values().stream().mapToLong(AtomicLong::get).max().orElse(0);
  }

  /**
   * The highest count in any window of {@code windowMillis} sliding by 100 ms steps would need the
   * raw times; the calendar second is what a PSP's rate limiter sees, so that is what we report.
   */
  public Map<Long, Long> secondsSnapshot() {
    Map<Long, Long> copy = new java.util.TreeMap<>();
    perSecond.forEach((s, n) -> copy.put(s, n.get()));
    return copy;
  }

  public void reset() {
    perSecond.clear();
    total.set(0);
  }
}
