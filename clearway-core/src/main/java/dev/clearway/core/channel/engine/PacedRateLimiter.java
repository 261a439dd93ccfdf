package dev.clearway.core.channel.engine;

import dev.clearway.core.channel.port.CallBudget;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Per account pacing within one process ({@link CallBudget}): calls to one account are spaced at
 * least 1/qps apart, without bursts, so a backlog drains at the configured budget and never as a
 * storm. With several nodes, either give each its share of the budget or use a shared budget (the
 * {@code clearway-redis} module). Correctness never depends on it; it only protects the PSP.
 */
public final class PacedRateLimiter implements CallBudget {

  /** Error code of a call not made because its slot would start after the caller's lease. */
  public static final String PAST_LEASE = "PACING_PAST_LEASE";

  private final Map<Long, Slot> slots = new ConcurrentHashMap<>();

  private static final class Slot {
    long nextFreeNanos;
  }

  @Override
  public void acquire(long accountId, int qps) {
    reserve(accountId, qps, Long.MAX_VALUE);
  }

  @Override
  public boolean tryAcquire(long accountId, int qps, Duration maxWait) {
    return reserve(accountId, qps, nanos(maxWait));
  }

  @Override
  public Duration backlog(long accountId) {
    Slot slot = slots.get(accountId);
    if (slot == null) {
      return Duration.ZERO;
    }
    synchronized (slot) {
      return Duration.ofNanos(Math.max(0, slot.nextFreeNanos - System.nanoTime()));
    }
  }

  private boolean reserve(long accountId, int qps, long maxWaitNanos) {
    if (qps <= 0) {
      throw new IllegalArgumentException("qps must be positive");
    }
    long interval = TimeUnit.SECONDS.toNanos(1) / qps;
    Slot slot = slots.computeIfAbsent(accountId, id -> new Slot());
    long mine;
    synchronized (slot) {
      long now = System.nanoTime();
      mine = Math.max(now, slot.nextFreeNanos);
      if (maxWaitNanos < 0 || mine - now > maxWaitNanos) {
        return false;
      }
      slot.nextFreeNanos = mine + interval;
    }
    long wait;
    while ((wait = mine - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        return true;
      }
    }
    return true;
  }

  private static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
