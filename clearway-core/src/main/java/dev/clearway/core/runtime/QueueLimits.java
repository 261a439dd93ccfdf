package dev.clearway.core.runtime;

/**
 * Capacities of an engine's in-process queues. A full queue refuses (and counts) instead of
 * growing: the rows stay due in the database, where the scanner finds them.
 *
 * @param workerQueue advances waiting for a worker thread; a scanner hand-off to a full queue runs
 *     in the scanner's thread (the scanner slows down), a wake-up to a full queue is dropped
 * @param wakeups delayed wake-ups held at once, one per flow
 */
public record QueueLimits(int workerQueue, int wakeups) {

  /** Enough for bursts, small against the heap (a wake-up holds two longs). */
  public static final int DEFAULT_WAKEUPS = 50_000;

  public QueueLimits {
    if (workerQueue < 0) {
      throw new IllegalArgumentException("workerQueue must not be negative");
    }
    if (wakeups < 1) {
      throw new IllegalArgumentException("wakeups must be at least 1");
    }
  }

  /** Four queued advances per worker and {@link #DEFAULT_WAKEUPS} wake-ups. */
  public static QueueLimits defaults(int workers) {
    return new QueueLimits(workers * 4, DEFAULT_WAKEUPS);
  }
}
