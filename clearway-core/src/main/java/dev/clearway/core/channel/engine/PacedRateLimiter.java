package dev.clearway.core.channel.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Per channel account pacing (seed 003 section 6.1): calls to one account are spaced at least 1/qps
 * apart, without bursts, so a backlog drains at the configured budget and never as a storm.
 * In-process: with several nodes, give each its share of the budget. Correctness never depends on
 * it; it only protects the PSP.
 */
public final class PacedRateLimiter {

  private final Map<Long, Slot> slots = new ConcurrentHashMap<>();

  private static final class Slot {
    long nextFreeNanos;
  }

  /** Blocks until a call to {@code accountId} is allowed at {@code qps} calls per second. */
  public void acquire(long accountId, int qps) {
    if (qps <= 0) {
      throw new IllegalArgumentException("qps must be positive");
    }
    long interval = TimeUnit.SECONDS.toNanos(1) / qps;
    Slot slot = slots.computeIfAbsent(accountId, id -> new Slot());
    long mine;
    synchronized (slot) {
      long now = System.nanoTime();
      mine = Math.max(now, slot.nextFreeNanos);
      slot.nextFreeNanos = mine + interval;
    }
    long wait;
    while ((wait = mine - System.nanoTime()) > 0) {
      LockSupport.parkNanos(wait);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
