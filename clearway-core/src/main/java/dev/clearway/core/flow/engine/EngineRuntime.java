package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.runtime.BoundedPool;
import dev.clearway.core.runtime.Supervision;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The background half of an engine: a bounded pool of workers that runs advances handed over by the
 * scanner and by wake-ups, and one thread that runs scanner rounds. When the pool and its queue are
 * full, the scanner runs the advance in its own thread (a backlog slows the scanner instead of
 * piling up claims whose leases expire in a queue), and a wake-up is dropped and counted (the row
 * stays due, so the scanner finds it). A worker that dies and a scanner round that fails are
 * reported with their cause; the loop goes on. Flows and after-sales refunds each run one.
 */
public final class EngineRuntime implements AutoCloseable {
  /** Advances one leased row (a flow, a refund). */
  @FunctionalInterface
  public interface Work {
    void advance(long id, Trigger trigger);
  }

  /**
   * Advances a share of a claimed page together: rows the claim returned, distinct, all under one
   * lease.
   */
  @FunctionalInterface
  public interface PageWork {
    void advancePage(List<PayFlow> rows, Trigger trigger);
  }

  /** Flows of a claimed page handed to one worker at most: the page is split into such shares. */
  static final int PAGE_SHARE = 32;

  /** Runs one scanner round, handing every claimed row to the dispatcher; returns the hits. */
  @FunctionalInterface
  public interface Rounds {
    int run(Scanner.Dispatcher dispatch);
  }

  /**
   * How one runtime is set up.
   *
   * @param name prefix of the thread names ({@code name-worker-N}, {@code name-scanner})
   * @param kind what it advances ({@code flow}, {@code refund}): reports name the loops {@code
   *     kind-worker} and {@code kind-scanner} and the pool {@code kind-workers}
   * @param workers worker threads
   * @param queue advances that may wait for a worker
   */
  public record Settings(
      String name,
      String kind,
      Duration scanInterval,
      int workers,
      int queue,
      Supervision supervision) {}

  private final Work work;
  private final PageWork pages;
  private final Rounds rounds;
  private final Settings settings;
  private final ThreadPoolExecutor workers;
  private final Thread scannerThread;
  private volatile boolean running = true;
  private volatile BiConsumer<Long, Throwable> onWorkerDeath = (id, t) -> {};

  public EngineRuntime(Advancer advancer, Scanner scanner, EngineConfig config, int workerCount) {
    this(
        new Settings(
            "clearway",
            "flow",
            config.scanInterval(),
            workerCount,
            workerCount * 4,
            Supervision.defaults()),
        advancer::advance,
        advancer::advancePage,
        scanner::runRound);
  }

  /**
   * @param name prefix of the thread names ({@code name-worker-N}, {@code name-scanner})
   */
  public EngineRuntime(
      String name, Work work, Rounds rounds, Duration scanInterval, int workerCount) {
    this(
        new Settings(
            name, name, scanInterval, workerCount, workerCount * 4, Supervision.defaults()),
        work,
        rounds);
  }

  public EngineRuntime(Settings settings, Work work, Rounds rounds) {
    this(settings, work, null, rounds);
  }

  /**
   * A runtime whose scanner hands each claimed page that carries its rows to {@code pages} in
   * shares of at most {@link #PAGE_SHARE} flows, one share per worker task; {@code pages} null:
   * every row alone to {@code work}.
   */
  public EngineRuntime(Settings settings, Work work, PageWork pages, Rounds rounds) {
    this.work = work;
    this.pages = pages;
    this.rounds = rounds;
    this.settings = settings;
    this.workers =
        BoundedPool.create(
            settings.name() + "-worker", settings.workers(), settings.queue(), () -> {});
    this.scannerThread = new Thread(this::scanLoop, settings.name() + "-scanner");
    this.scannerThread.setDaemon(true);
  }

  /**
   * Also called when an advance dies with an exception or error (a crashed worker), after the
   * failure was reported to the supervision; {@code id} is -1 for a failed scanner round.
   */
  public void onWorkerDeath(BiConsumer<Long, Throwable> listener) {
    this.onWorkerDeath = listener;
  }

  public void start() {
    scannerThread.start();
  }

  /**
   * Entry for wake-ups and callbacks: the advance claims the flow itself. With every worker busy
   * and the queue full the wake-up is dropped and counted; the flow stays due for the scanner.
   */
  public void wake(long flowId, TriggerSource source) {
    if (!running) {
      return;
    }
    try {
      workers.execute(task(flowId, Trigger.unclaimed(source)));
    } catch (RejectedExecutionException full) {
      if (running) {
        settings.supervision().overload().rejected(settings.kind() + "-workers");
      }
    }
  }

  /** The scanner's hand-off of one row. */
  private void dispatch(long id, Trigger trigger) {
    hand(task(id, trigger));
  }

  /**
   * The scanner's hand-off of a page: shares of at most {@link #PAGE_SHARE} rows, of about equal
   * size, each one worker task; a page whose claim did not return its rows goes row by row.
   */
  private void dispatchPage(List<Scanner.Claimed> page) {
    if (pages == null || page.stream().anyMatch(c -> c.trigger().claimed() == null)) {
      page.forEach(c -> dispatch(c.id(), c.trigger()));
      return;
    }
    int shares = (page.size() + PAGE_SHARE - 1) / PAGE_SHARE;
    for (int s = 0; s < shares; s++) {
      List<Scanner.Claimed> share =
          page.subList(page.size() * s / shares, page.size() * (s + 1) / shares);
      List<PayFlow> rows = share.stream().map(c -> c.trigger().claimed()).toList();
      Trigger first = share.get(0).trigger();
      Trigger trigger = Trigger.held(first.source(), first.lease());
      hand(guarded(share.get(0).id(), () -> pages.advancePage(rows, trigger)));
    }
  }

  /** Runs {@code task} on a worker, or in the scanner's thread when the pool is full. */
  private void hand(Runnable task) {
    if (!running) {
      return;
    }
    try {
      workers.execute(task);
    } catch (RejectedExecutionException full) {
      if (running) {
        task.run();
      }
    }
  }

  private Runnable task(long id, Trigger trigger) {
    return guarded(id, () -> work.advance(id, trigger));
  }

  private Runnable guarded(long id, Runnable advance) {
    return () -> {
      try {
        advance.run();
      } catch (Throwable t) {
        // The worker "dies" holding its lease; the lease expires and the scanner takes over.
        died(settings.kind() + "-worker", id, t);
      }
    };
  }

  private void scanLoop() {
    while (running) {
      try {
        rounds.run(
            new Scanner.Dispatcher() {
              @Override
              public void dispatch(long id, Trigger trigger) {
                EngineRuntime.this.dispatch(id, trigger);
              }

              @Override
              public void dispatchPage(List<Scanner.Claimed> page) {
                EngineRuntime.this.dispatchPage(page);
              }
            });
      } catch (Throwable t) {
        // The claimed rows keep their leases until expiry; the next round takes them over.
        died(settings.kind() + "-scanner", -1L, t);
      }
      try {
        Thread.sleep(settings.scanInterval().toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void died(String loop, long id, Throwable t) {
    try {
      settings.supervision().failures().failed(loop, t);
    } finally {
      onWorkerDeath.accept(id, t);
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
