package dev.clearway.core.engine;

import dev.clearway.core.domain.TriggerSource;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The background half of an engine: a bounded pool of workers that runs advances handed over by the
 * scanner and by wake-ups, and one thread that runs scanner rounds. When the pool is full the
 * handing thread runs the advance itself, so a backlog slows the scanner instead of piling up
 * claims whose leases expire in a queue. Flows and after-sales refunds each run one.
 */
public final class EngineRuntime implements AutoCloseable {
  /** Advances one leased row (a flow, a refund). */
  @FunctionalInterface
  public interface Work {
    void advance(long id, Trigger trigger);
  }

  /** Runs one scanner round, handing every claimed row to the dispatcher; returns the hits. */
  @FunctionalInterface
  public interface Rounds {
    int run(Scanner.Dispatcher dispatch);
  }

  private final Work work;
  private final Rounds rounds;
  private final Duration scanInterval;
  private final ThreadPoolExecutor workers;
  private final Thread scannerThread;
  private volatile boolean running = true;
  private volatile BiConsumer<Long, Throwable> onWorkerDeath = (id, t) -> {};

  public EngineRuntime(Advancer advancer, Scanner scanner, EngineConfig config, int workerCount) {
    this("clearway", advancer::advance, scanner::runRound, config.scanInterval(), workerCount);
  }

  /**
   * @param name prefix of the thread names ({@code name-worker-N}, {@code name-scanner})
   */
  public EngineRuntime(
      String name, Work work, Rounds rounds, Duration scanInterval, int workerCount) {
    this.work = work;
    this.rounds = rounds;
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
              Thread t = new Thread(r, name + "-worker-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            },
            new ThreadPoolExecutor.CallerRunsPolicy());
    this.scannerThread = new Thread(this::scanLoop, name + "-scanner");
    this.scannerThread.setDaemon(true);
  }

  /** Called when an advance dies with an exception or error (a crashed worker). */
  public void onWorkerDeath(BiConsumer<Long, Throwable> listener) {
    this.onWorkerDeath = listener;
  }

  public void start() {
    scannerThread.start();
  }

  /** Entry for wake-ups and callbacks: the advance claims the flow itself. */
  public void wake(long flowId, TriggerSource source) {
    submit(flowId, Trigger.unclaimed(source));
  }

  private void submit(long flowId, Trigger trigger) {
    if (!running) {
      return;
    }
    workers.execute(
        () -> {
          try {
            work.advance(flowId, trigger);
          } catch (Throwable t) {
            // The worker "dies" holding its lease; the lease expires and the scanner takes over.
            onWorkerDeath.accept(flowId, t);
          }
        });
  }

  private void scanLoop() {
    while (running) {
      try {
        rounds.run(this::submit);
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
