package dev.clearway.app.refund;

import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.engine.EngineConfig;
import dev.clearway.core.engine.EngineRuntime;
import dev.clearway.core.engine.InProcessWakeups;
import dev.clearway.core.engine.LeaseTokens;
import dev.clearway.core.engine.Scanner;
import dev.clearway.core.port.FlowStore;
import dev.clearway.core.port.WalletGateway;
import dev.clearway.core.refund.RefundAdvancer;
import dev.clearway.core.refund.RefundEvents;
import dev.clearway.core.refund.RefundService;
import dev.clearway.core.refund.RefundStore;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the after-sales refund engine from its ports with plain constructors: advancer, scanner,
 * in-process wake-ups (refund ids, a queue of their own), the worker runtime, the synchronous
 * service and the small pool its synchronous advances run on.
 */
public final class RefundEngine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RefundEngine.class);

  private final InProcessWakeups wakeups;
  private final RefundAdvancer advancer;
  private final Scanner scanner;
  private final EngineRuntime runtime;
  private final RefundService service;
  private final ExecutorService syncAdvances;

  public RefundEngine(
      RefundStore store,
      FlowStore flows,
      WalletGateway wallet,
      RefundEvents events,
      EngineConfig config,
      Clock clock,
      String instanceId,
      int workers,
      int syncThreads) {
    LeaseTokens leases = new LeaseTokens(instanceId, clock, config);
    AtomicReference<EngineRuntime> runtimeRef = new AtomicReference<>();
    this.wakeups =
        new InProcessWakeups(
            clock,
            refundId -> {
              EngineRuntime r = runtimeRef.get();
              if (r != null) {
                r.wake(refundId, TriggerSource.WAKEUP);
              }
            });
    this.advancer =
        new RefundAdvancer(store, flows, wallet, wakeups, events, leases, config, clock);
    this.scanner = new Scanner(store::claimDue, leases, config, events::scannerRound, clock);
    this.runtime =
        new EngineRuntime(
            "clearway-refund",
            advancer::advance,
            scanner::runRound,
            config.scanInterval(),
            workers);
    runtimeRef.set(runtime);
    // The refund stays leased to the dead worker until the lease expires; the scanner takes it
    // over. Only the id and the exception's class are logged, never amounts or numbers.
    runtime.onWorkerDeath(
        (refundId, t) ->
            log.warn(
                "refund advance {} died ({}); the refund scanner takes it over",
                refundId,
                t.getClass().getName()));
    this.service = new RefundService(store, advancer, leases, events, clock);
    this.syncAdvances =
        Executors.newFixedThreadPool(
            syncThreads,
            r -> {
              Thread t = new Thread(r, "clearway-refund-sync");
              t.setDaemon(true);
              return t;
            });
  }

  public RefundEngine start() {
    runtime.start();
    return this;
  }

  public RefundAdvancer advancer() {
    return advancer;
  }

  public Scanner scanner() {
    return scanner;
  }

  public EngineRuntime runtime() {
    return runtime;
  }

  public RefundService service() {
    return service;
  }

  /** Where synchronous advances of new refunds run, so a request can stop waiting. */
  public ExecutorService syncAdvances() {
    return syncAdvances;
  }

  @Override
  public void close() {
    runtime.close();
    wakeups.close();
    syncAdvances.shutdown();
    try {
      syncAdvances.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
