package dev.clearway.boot;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Advancer;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.EngineRuntime;
import dev.clearway.core.flow.engine.InProcessWakeups;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.runtime.QueueLimits;
import dev.clearway.core.runtime.Supervision;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * Wires one engine instance from its ports: advancer, scanner, in-process wake-ups and the worker
 * runtime. Plain constructors; the Spring Boot application and the command line both use it.
 */
public final class EngineAssembly implements AutoCloseable {
  private final Advancer advancer;
  private final EngineRuntime runtime;
  private final InProcessWakeups wakeups;
  private final PaymentService payments;

  /**
   * @param wakeupDecorator wraps the wake-up path (chaos injects lost, duplicated and delayed
   *     wake-ups here); use {@code UnaryOperator.identity()} in production
   */
  public EngineAssembly(
      FlowStore store,
      WalletGateway wallet,
      BusinessGateway business,
      EngineEvents events,
      EngineConfig config,
      Clock clock,
      String instanceId,
      int workers,
      UnaryOperator<WakeupScheduler> wakeupDecorator) {
    this(
        store,
        wallet,
        business,
        events,
        config,
        clock,
        instanceId,
        workers,
        wakeupDecorator,
        QueueLimits.defaults(workers),
        Supervision.defaults());
  }

  /**
   * @param limits capacities of the worker queue and of the wake-up queue
   * @param supervision where worker deaths, failed rounds and refused work are reported
   */
  public EngineAssembly(
      FlowStore store,
      WalletGateway wallet,
      BusinessGateway business,
      EngineEvents events,
      EngineConfig config,
      Clock clock,
      String instanceId,
      int workers,
      UnaryOperator<WakeupScheduler> wakeupDecorator,
      QueueLimits limits,
      Supervision supervision) {
    LeaseTokens leases = new LeaseTokens(instanceId, clock, config);
    AtomicReference<EngineRuntime> runtimeRef = new AtomicReference<>();
    this.wakeups =
        new InProcessWakeups(
            clock,
            flowId -> {
              EngineRuntime r = runtimeRef.get();
              if (r != null) {
                r.wake(flowId, TriggerSource.WAKEUP);
              }
            },
            new InProcessWakeups.Settings("flow-wakeups", limits.wakeups(), supervision));
    WakeupScheduler scheduler = wakeupDecorator.apply(wakeups);
    this.advancer = new Advancer(store, wallet, business, scheduler, events, leases, config, clock);
    Scanner scanner = new Scanner(store, leases, config, events, clock);
    this.runtime =
        new EngineRuntime(
            new EngineRuntime.Settings(
                "clearway",
                "flow",
                config.scanInterval(),
                workers,
                limits.workerQueue(),
                supervision),
            advancer::advance,
            advancer::advancePage,
            scanner::runRound);
    runtimeRef.set(runtime);
    this.payments = new PaymentService(store, advancer, leases, scheduler, clock);
  }

  public EngineAssembly start() {
    runtime.start();
    return this;
  }

  public Advancer advancer() {
    return advancer;
  }

  public EngineRuntime runtime() {
    return runtime;
  }

  public PaymentService payments() {
    return payments;
  }

  /** The in-process wake-up queue of this engine. */
  public InProcessWakeups wakeups() {
    return wakeups;
  }

  @Override
  public void close() {
    runtime.close();
    wakeups.close();
  }
}
