package dev.clearway.core.channel.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Per channel account pacing: calls to one account are spaced at least 1/qps apart, without bursts,
 * so a backlog drains at the configured budget and never as a storm. In-process: with several
 * nodes, give each its share of the budget. Correctness never depends on it; it only protects the
 * PSP.
 *
 * <p>A worker that holds a lease never waits past it: {@link #tryAcquire} refuses a slot that
 * starts later than the lease allows, without taking it, and the worker reschedules its step.
 */
public final class PacedRateLimiter {

  /** Error code of a call not made because its slot would start after the caller's lease. */
  public static final String PAST_LEASE = "PACING_PAST_LEASE";

  private final Map<Long, Slot> slots = new ConcurrentHashMap<>();

  private static final class Slot {
    long nextFreeNanos;
  }

  /** Blocks until a call to {@code accountId} is allowed at {@code qps} calls per second. */
  public void acquire(long accountId, int qps) {
    reserve(accountId, qps, Long.MAX_VALUE);
  }

  /**
   * Takes the next slot of {@code accountId} and waits for it, if it starts within {@code maxWait};
   * otherwise takes nothing and returns false at once. A zero {@code maxWait} takes only a slot
   * free now; a negative one (the lease is already over) takes none.
   */
  public boolean tryAcquire(long accountId, int qps, Duration maxWait) {
    return reserve(accountId, qps, nanos(maxWait));
  }

  /**
   * As {@link #tryAcquire}, for a worker whose lease ends at {@code leaseUntil} on {@code clock}:
   * the slot must start before the lease ends. A null {@code leaseUntil} (the caller holds no
   * lease) waits as {@link #acquire}.
   */
  public boolean acquireWithin(long accountId, int qps, Instant leaseUntil, Clock clock) {
    if (leaseUntil == null) {
      acquire(accountId, qps);
      return true;
    }
    return tryAcquire(accountId, qps, Duration.between(clock.instant(), leaseUntil));
  }

  /** How long until the next slot of {@code accountId} is free; zero when it is free now. */
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
