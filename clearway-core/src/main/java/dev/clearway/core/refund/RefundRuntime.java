package dev.clearway.core.refund;

import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.engine.Trigger;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * The background half of the refund engine: a bounded worker pool for advances handed over by the
 * refund scanner and by wake-ups, and one thread that runs scanner rounds. As in the flow engine, a
 * full pool makes the handing thread run the advance itself, so a backlog slows scanning instead of
 * queueing claims whose leases would expire.
 */
public final class RefundRuntime implements AutoCloseable {
  private final RefundAdvancer advancer;
  private final RefundScanner scanner;
  private final Duration scanInterval;
  private final ThreadPoolExecutor workers;
  private final Thread scannerThread;
  private final AtomicLong rounds = new AtomicLong();
  private volatile boolean running = true;
  private volatile BiConsumer<Long, Throwable> onWorkerDeath = (id, t) -> {};

  public RefundRuntime(
      RefundAdvancer advancer, RefundScanner scanner, Duration scanInterval, int workerCount) {
    this.advancer = advancer;
    this.scanner = scanner;
    this.scanInterval = scanInterval;
    AtomicInteger n = new AtomicInteger();
    this.workers =
        new ThreadPoolExecutor(
            workerCount,
            workerCount,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(workerCount * 4),
            r -> {
              Thread t = new Thread(r, "clearway-refund-worker-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            },
            new ThreadPoolExecutor.CallerRunsPolicy());
    this.scannerThread = new Thread(this::scanLoop, "clearway-refund-scanner");
    this.scannerThread.setDaemon(true);
  }

  /**
   * Called when an advance dies with an exception or error (its lease expires, the scan takes
   * over).
   */
  public void onWorkerDeath(BiConsumer<Long, Throwable> listener) {
    this.onWorkerDeath = listener;
  }

  public void start() {
    scannerThread.start();
  }

  /** Entry for wake-ups: the advance claims the refund itself. */
  public void wake(long refundId, TriggerSource source) {
    submit(refundId, Trigger.unclaimed(source));
  }

  public long scannerRounds() {
    return rounds.get();
  }

  private void submit(long refundId, Trigger trigger) {
    if (!running) {
      return;
    }
    workers.execute(
        () -> {
          try {
            advancer.advance(refundId, trigger);
          } catch (Throwable t) {
            onWorkerDeath.accept(refundId, t);
          }
        });
  }

  private void scanLoop() {
    while (running) {
      try {
        scanner.runRound(this::submit);
        rounds.incrementAndGet();
      } catch (RuntimeException e) {
        onWorkerDeath.accept(-1L, e);
      }
      try {
        Thread.sleep(scanInterval.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    scannerThread.interrupt();
    workers.shutdown();
    try {
      workers.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
