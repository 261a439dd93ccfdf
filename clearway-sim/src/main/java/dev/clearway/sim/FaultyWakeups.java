package dev.clearway.sim;

import dev.clearway.core.flow.port.WakeupScheduler;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps the wake-up path with trigger faults: wake-ups lost (the scanner must find the flow),
 * duplicated (two advances race; the CAS decides) and delayed (an old trigger arrives late and must
 * re-read the row).
 */
public final class FaultyWakeups implements WakeupScheduler {
  private final WakeupScheduler inner;
  private final FaultPlan faults;
  private final Map<Long, AtomicInteger> perFlow = new ConcurrentHashMap<>();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong duplicated = new AtomicLong();
  private final AtomicLong delayed = new AtomicLong();

  public FaultyWakeups(WakeupScheduler inner, FaultPlan faults) {
    this.inner = inner;
    this.faults = faults;
  }

  @Override
  public void schedule(long flowId, Instant at) {
    // Keyed by (flow, n-th wake-up of that flow): replayable from the seed, whatever the order
    // in which other flows schedule theirs.
    int n = perFlow.computeIfAbsent(flowId, k -> new AtomicInteger()).incrementAndGet();
    String key = flowId + "#" + n;
    double u = faults.unit("wakeup", key, 0);
    double third = faults.rate() / 3;
    if (u < third) {
      lost.incrementAndGet();
      return;
    }
    if (u < 2 * third) {
      duplicated.incrementAndGet();
      inner.schedule(flowId, at);
      inner.schedule(flowId, at.plusMillis(faults.below("wakeup.dup", key, 1, 50)));
      return;
    }
    if (u < faults.rate()) {
      delayed.incrementAndGet();
      inner.schedule(
          flowId,
          at.plus(
              faults.duration("wakeup.delay", key, Duration.ofMillis(200), Duration.ofSeconds(3))));
      return;
    }
    inner.schedule(flowId, at);
  }

  public long lost() {
    return lost.get();
  }

  public long duplicated() {
    return duplicated.get();
  }

  public long delayed() {
    return delayed.get();
  }
}
