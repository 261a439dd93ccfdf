package dev.clearway.service.refund;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.EngineRuntime;
import dev.clearway.core.flow.engine.InProcessWakeups;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.refund.engine.RefundAdvancer;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.runtime.BoundedPool;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.runtime.QueueLimits;
import dev.clearway.core.runtime.Supervision;
import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Wires the after-sales refund engine from its ports with plain constructors: advancer, scanner,
 * in-process wake-ups (refund ids, a queue of their own), the worker runtime, the synchronous
 * service and the small pool its synchronous advances run on.
 */
public final class RefundEngine implements AutoCloseable {
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
    this(
        store,
        flows,
        wallet,
        events,
        config,
        clock,
        instanceId,
        new Pools(workers, syncThreads, syncThreads * 2, QueueLimits.defaults(workers)),
        Supervision.defaults());
  }

  /**
   * Sizes of the refund engine's pools and queues.
   *
   * @param workers background workers (scanner hand-offs, wake-ups)
   * @param syncThreads threads that advance new refunds while the request waits
   * @param syncQueue new refunds that may wait for one of them; beyond it the request is answered
   *     503 {@code overloaded} and the refund scanner sends the refund
   * @param queues the workers' queue and the wake-up queue
   */
  public record Pools(int workers, int syncThreads, int syncQueue, QueueLimits queues) {}

  public RefundEngine(
      RefundStore store,
      FlowStore flows,
      WalletGateway wallet,
      RefundEvents events,
      EngineConfig config,
      Clock clock,
      String instanceId,
      Pools pools,
      Supervision supervision) {
    this(
        store,
        flows,
        wallet,
        events,
        config,
        clock,
        instanceId,
        pools,
        supervision,
        UnaryOperator.identity());
  }

  /**
   * @param wakeupsOr given the in-process wake-ups, returns those the advancer schedules with (the
   *     broker's refund wake-ups when a broker is configured, else the in-process ones)
   */
  public RefundEngine(
      RefundStore store,
      FlowStore flows,
      WalletGateway wallet,
      RefundEvents events,
      EngineConfig config,
      Clock clock,
      String instanceId,
      Pools pools,
      Supervision supervision,
      UnaryOperator<WakeupScheduler> wakeupsOr) {
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
            },
            new InProcessWakeups.Settings("refund-wakeups", pools.queues().wakeups(), supervision));
    this.advancer =
        new RefundAdvancer(
            store, flows, wallet, wakeupsOr.apply(wakeups), events, leases, config, clock);
    this.scanner = new Scanner(store::claimDue, leases, config, events::scannerRound, clock);
    // A refund whose worker died stays leased to it until the lease expires; the scanner takes it
    // over. The runtime reports the death with its cause to the supervision.
    this.runtime =
        new EngineRuntime(
            new EngineRuntime.Settings(
                "clearway-refund",
                "refund",
                config.scanInterval(),
                pools.workers(),
                pools.queues().workerQueue(),
                supervision),
            advancer::advance,
            scanner::runRound);
    runtimeRef.set(runtime);
    this.service = new RefundService(store, advancer, leases, events, clock);
    this.syncAdvances =
        BoundedPool.create(
            "clearway-refund-sync",
            pools.syncThreads(),
            pools.syncQueue(),
            () -> supervision.overload().rejected("refund-sync"));
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
