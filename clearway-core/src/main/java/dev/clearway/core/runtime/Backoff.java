package dev.clearway.core.runtime;

import dev.clearway.core.flow.engine.EngineConfig;
import java.time.Duration;
import java.time.Instant;

/**
 * Exponential backoff with jitter. The jitter is derived from (flow id, retry count) so that a run
 * is replayable from its seed and two flows scheduled together spread out.
 */
public final class Backoff {
  private final EngineConfig config;

  public Backoff(EngineConfig config) {
    this.config = config;
  }

  /** Next retry time for the given retry count (0 for the first retry). */
  public Instant next(long flowId, int retryCount, boolean escalated, Instant now) {
    if (escalated) {
      return now.plus(config.escalatedInterval());
    }
    long base = config.backoffBase().toMillis();
    long cap = config.backoffCap().toMillis();
    long exp = retryCount >= 30 ? cap : Math.min(cap, base << retryCount);
    // jitter in [exp/2, exp]
    long jitter = Math.floorMod(mix(flowId * 31 + retryCount), Math.max(1, exp / 2 + 1));
    return now.plus(Duration.ofMillis(exp / 2 + jitter));
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
