package dev.clearway.sim;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Deterministic fault selection: the fault of an order depends only on (seed, dimension, key), not
 * on thread timing, so a run's fault assignment replays exactly from its seed.
 */
public final class FaultPlan {
  private final long seed;
  private final double rate;

  public FaultPlan(long seed, double rate) {
    if (rate < 0 || rate > 1) {
      throw new IllegalArgumentException("fault rate must be within [0, 1]");
    }
    this.seed = seed;
    this.rate = rate;
  }

  public static FaultPlan none() {
    return new FaultPlan(0, 0);
  }

  public double rate() {
    return rate;
  }

  /** The fault for {@code key} in {@code dimension}, or {@code none} with probability 1-rate. */
  public <E extends Enum<E>> E pick(String dimension, String key, E none, E[] faults) {
    if (faults.length == 0 || unit(dimension, key, 0) >= rate) {
      return none;
    }
    return faults[(int) Math.floorMod(hash(dimension, key, 1), (long) faults.length)];
  }

  /** A duration in [min, max], fixed for (dimension, key). */
  public Duration duration(String dimension, String key, Duration min, Duration max) {
    long span = max.toMillis() - min.toMillis();
    long offset = span <= 0 ? 0 : Math.floorMod(hash(dimension, key, 2), span + 1);
    return min.plusMillis(offset);
  }

  /** A uniform number in [0, 1) fixed for (dimension, key, salt). */
  public double unit(String dimension, String key, long salt) {
    return (hash(dimension, key, salt) >>> 11) * 0x1.0p-53;
  }

  /** An integer in [0, bound) fixed for (dimension, key, salt). */
  public int below(String dimension, String key, long salt, int bound) {
    return (int) Math.floorMod(hash(dimension, key, salt + 7), (long) bound);
  }

  private long hash(String dimension, String key, long salt) {
    long h = seed * 0x9E3779B97F4A7C15L + salt;
    for (byte b : (dimension + '\u0000' + key).getBytes(StandardCharsets.UTF_8)) {
      h = mix(h ^ b);
    }
    return mix(h);
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
