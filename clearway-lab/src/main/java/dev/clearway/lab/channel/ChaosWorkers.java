package dev.clearway.lab.channel;

import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.CompensationWorker;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.port.ChannelStores;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The background work of the chaos run, each on its own {@link ChaosLoops loop}: two recovery
 * workers racing the webhooks (and each other), the compensation worker, and the {@link ChaosCloser
 * closer}. A third worker can be made to crash holding leases, which the others must take over.
 */
final class ChaosWorkers {

  private final ChannelContext ctx;
  private final ChannelStores store;
  private final ChaosCounts counts;
  private final ExecutorService pool = Executors.newFixedThreadPool(32);
  private final ChaosLoops loops = new ChaosLoops();

  ChaosWorkers(ChannelContext ctx, ChannelStores store, ChaosCounts counts) {
    this.ctx = ctx;
    this.store = store;
    this.counts = counts;
  }

  /** Starts the recovery workers w1 and w2, the compensation worker and the closer. */
  ChaosWorkers start(ChaosCloser closer) {
    for (String owner : List.of("w1", "w2")) {
      RecoveryWorker worker =
          new RecoveryWorker(ctx, new RecoveryWorker.Settings(owner, 50, Duration.ofSeconds(5)));
      loops.start(owner, () -> worker.runOnce(pool));
    }
    CompensationWorker compensation = new CompensationWorker(ctx);
    loops.start("compensation", () -> compensation.runOnce(20));
    loops.start("closer", closer::closeOverdue, 200);
    return this;
  }

  /**
   * A worker claims a batch with a short lease and dies: the others must take over. Counts the
   * leases abandoned ({@code leasesAbandoned}).
   */
  void crashOne() {
    int taken =
        store
            .tasks()
            .claimDue(
                "crashed-worker",
                20,
                Duration.ofSeconds(1),
                Clock.systemUTC().instant().plusSeconds(3)) // also tasks about to fall due
            .size();
    counts.add("leasesAbandoned", taken);
  }

  /** Asks every loop to stop after its current round. */
  void stop() {
    loops.stop();
  }

  /** Waits for the loops to end, then stops the recovery workers' pool. */
  void awaitStopped() throws InterruptedException {
    loops.join();
    pool.shutdownNow();
  }
}
