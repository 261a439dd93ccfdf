package dev.clearway.core.runtime;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed pool of daemon threads in front of a bounded queue. When threads and queue are full, a
 * submission is refused with {@link RejectedExecutionException} (after {@code onReject} ran): the
 * caller decides what refusal means, never an unbounded backlog of tasks whose leases expire while
 * they wait.
 */
public final class BoundedPool {
  private BoundedPool() {}

  /**
   * @param threadPrefix thread names are {@code threadPrefix-N}
   * @param threads worker threads (at least 1)
   * @param queueCapacity tasks that may wait for a thread; 0 hands over only to an idle thread
   * @param onReject runs on every refusal, before the exception (a counter)
   */
  public static ThreadPoolExecutor create(
      String threadPrefix, int threads, int queueCapacity, Runnable onReject) {
    if (threads < 1) {
      throw new IllegalArgumentException(threadPrefix + ": threads must be at least 1");
    }
    if (queueCapacity < 0) {
      throw new IllegalArgumentException(threadPrefix + ": queue capacity must not be negative");
    }
    BlockingQueue<Runnable> queue =
        queueCapacity == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(queueCapacity);
    AtomicInteger n = new AtomicInteger();
    return new ThreadPoolExecutor(
        threads,
        threads,
        30,
        TimeUnit.SECONDS,
        queue,
        r -> {
          Thread t = new Thread(r, threadPrefix + "-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        },
        (task, pool) -> {
          onReject.run();
          throw new RejectedExecutionException(threadPrefix + " is full");
        });
  }
}
