package dev.clearway.boot.channel;

import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.CompensationWorker;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.engine.StatementRecovery;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.flow.port.WorkerFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

/**
 * The running channel layer of one process: the gateway the flow engine pays through, the webhook
 * intake, and the loops of the recovery worker and the compensation worker.
 */
public final class ChannelLayer implements AutoCloseable {

  private final ChannelContext ctx;
  private final ChannelGateway gateway;
  private final ChannelWebhookIntake intake;
  private final RecoveryWorker recovery;
  private final CompensationWorker compensation;
  private final ExecutorService pool;
  private final WorkerFailures failures;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> loops = new ArrayList<>();
  private final Duration recoveryIdlePause;

  /** The pause of a loop after a round that found nothing to do. */
  public static final Duration IDLE_PAUSE = Duration.ofMillis(50);

  public ChannelLayer(ChannelContext ctx, PaymentMethods methods, String owner, int threads) {
    this(ctx, methods, owner, threads, WorkerFailures.systemLogger());
  }

  /**
   * @param failures told of every failed round ({@code channel-recovery}, {@code
   *     channel-compensation}), recovery task ({@code channel-recovery-task}) and compensation
   *     ({@code channel-compensation-item})
   */
  public ChannelLayer(
      ChannelContext ctx,
      PaymentMethods methods,
      String owner,
      int threads,
      WorkerFailures failures) {
    this(ctx, methods, owner, threads, failures, IDLE_PAUSE);
  }

  /**
   * @param recoveryIdlePause the pause of the recovery worker's claim rounds after a round that
   *     found nothing due (when a broker wakes the tasks left for later, the rounds are the safety
   *     net and may run less often)
   */
  public ChannelLayer(
      ChannelContext ctx,
      PaymentMethods methods,
      String owner,
      int threads,
      WorkerFailures failures,
      Duration recoveryIdlePause) {
    this(ctx, methods, owner, threads, failures, recoveryIdlePause, null);
  }

  /**
   * @param statements what the imported statements say, for the recovery policies' RECONCILIATION
   *     strategy; null: that strategy waits
   */
  public ChannelLayer(
      ChannelContext ctx,
      PaymentMethods methods,
      String owner,
      int threads,
      WorkerFailures failures,
      Duration recoveryIdlePause,
      StatementRecovery statements) {
    this(
        ctx,
        methods,
        PaymentDetailsStore.NONE,
        owner,
        threads,
        failures,
        recoveryIdlePause,
        statements);
  }

  /**
   * @param details the merchants' channel configurations and the client actions of attempts
   */
  public ChannelLayer(
      ChannelContext ctx,
      PaymentMethods methods,
      PaymentDetailsStore details,
      String owner,
      int threads,
      WorkerFailures failures,
      Duration recoveryIdlePause,
      StatementRecovery statements) {
    this.recoveryIdlePause = recoveryIdlePause;
    this.ctx = ctx;
    this.gateway = new ChannelGateway(ctx, methods, details);
    this.intake = new ChannelWebhookIntake(ctx);
    this.recovery =
        new RecoveryWorker(
            ctx,
            new RecoveryWorker.Settings(owner, 4 * threads, Duration.ofSeconds(45)),
            failures,
            statements);
    this.compensation = new CompensationWorker(ctx, failures);
    this.pool = Executors.newFixedThreadPool(threads);
    this.failures = failures;
  }

  /** The context the layer runs in (stores, adapters, clock), for the paths that record into it. */
  public ChannelContext context() {
    return ctx;
  }

  public ChannelGateway gateway() {
    return gateway;
  }

  public ChannelWebhookIntake intake() {
    return intake;
  }

  /** The recovery worker, whose claim rounds this layer runs; its tasks' wake-ups call it too. */
  public RecoveryWorker recovery() {
    return recovery;
  }

  public ChannelLayer start() {
    loops.add(loop("channel-recovery", () -> recovery.runOnce(pool), recoveryIdlePause));
    loops.add(loop("channel-compensation", () -> compensation.runOnce(20), IDLE_PAUSE));
    return this;
  }

  private Thread loop(String name, IntSupplier round, Duration idlePause) {
    Thread t =
        new Thread(
            () -> {
              while (!stop.get()) {
                int n;
                try {
                  n = round.getAsInt();
                } catch (Throwable e) {
                  // A database hiccup: the leases expire and the next round retries.
                  failures.failed(name, e);
                  n = 0;
                }
                if (n == 0) {
                  try {
                    Thread.sleep(idlePause.toMillis());
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            },
            "clearway-" + name);
    t.setDaemon(true);
    t.start();
    return t;
  }

  @Override
  public void close() {
    stop.set(true);
    for (Thread t : loops) {
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    pool.shutdownNow();
  }
}
