package dev.clearway.core.retention;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * One retention run: under the lease, every kind in turn, batch after batch until a batch comes
 * back short or the policy's batch budget is spent. Each batch is its own transaction, so the hot
 * tables are never locked for longer than one batch, and a run stopped half way (crash, lost lease)
 * leaves nothing half done: the next run simply goes on with the oldest rows left.
 */
public final class RetentionRun {
  private final RetentionStore store;
  private final RetentionLease lease;
  private final RetentionPolicy policy;
  private final RetentionEvents events;
  private final Clock clock;

  public RetentionRun(
      RetentionStore store,
      RetentionLease lease,
      RetentionPolicy policy,
      RetentionEvents events,
      Clock clock) {
    this.store = store;
    this.lease = lease;
    this.policy = policy;
    this.events = events;
    this.clock = clock;
  }

  /** Runs once if the lease is free; {@code leaseFor} should exceed the longest run. */
  public RetentionReport runOnce(String owner, Duration leaseFor) {
    Instant start = clock.instant();
    if (!lease.acquire(owner, start.plus(leaseFor), start)) {
      return RetentionReport.skipped();
    }
    Map<RetentionKind, Integer> removed = new EnumMap<>(RetentionKind.class);
    try {
      for (RetentionKind kind : RetentionKind.values()) {
        removed.put(kind, drain(kind, start.plus(leaseFor)));
      }
    } finally {
      lease.release(owner, clock.instant());
    }
    return new RetentionReport(true, removed);
  }

  /** Batches of one kind; the cutoff is fixed at the start so that the run ends. */
  private int drain(RetentionKind kind, Instant leaseEnd) {
    Instant cutoff = policy.cutoff(kind, clock.instant());
    int total = 0;
    for (int batch = 0; batch < policy.maxBatchesPerKind(); batch++) {
      if (Thread.currentThread().isInterrupted() || !clock.instant().isBefore(leaseEnd)) {
        break;
      }
      int rows;
      try {
        rows = store.removeBatch(kind, cutoff, policy.batchSize());
      } catch (RuntimeException e) {
        events.failed(kind, e);
        break;
      }
      total += rows;
      if (rows > 0) {
        events.removed(kind, rows);
      }
      if (rows < policy.batchSize()) {
        break;
      }
    }
    return total;
  }
}
