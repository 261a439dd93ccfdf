package dev.clearway.service.latecharge;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.EngineRuntime;
import dev.clearway.core.flow.engine.InProcessWakeups;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.latecharge.domain.SweepSchedule;
import dev.clearway.core.latecharge.engine.LateChargeChecker;
import dev.clearway.core.latecharge.engine.LateChargeSweep;
import dev.clearway.core.latecharge.port.LateChargeEvents;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.core.latecharge.port.SweepStore;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.runtime.QueueLimits;
import dev.clearway.core.runtime.Supervision;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the late-charge checks and the sweep with plain constructors: the checker, a scanner over
 * late_charge_check, wake-ups of the checks left for later (in process unless given others), the
 * worker runtime (its own bounded pool and scanner thread) and one thread that runs sweep rounds.
 * Everything they need to go on after a crash is in the database.
 */
public final class LateChargeEngine implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LateChargeEngine.class);

  private final LateChargeChecker checker;
  private final Scanner scanner;
  private final InProcessWakeups wakeups;
  private final EngineRuntime runtime;
  private final LateChargeSweep sweep;
  private final Thread sweepThread;
  private final FailureCounter failures;
  private volatile boolean running = true;

  /** Counts a loop's failures ({@code clearway.worker.failures{loop}}); a no-op without meters. */
  @FunctionalInterface
  public interface FailureCounter {
    void failed(String loop);

    static FailureCounter of(MeterRegistry registry) {
      return registry == null
          ? loop -> {}
          : loop -> registry.counter("clearway.worker.failures", "loop", loop).increment();
    }
  }

  public LateChargeEngine(
      LateChargeStore checks,
      SweepStore sweeps,
      FlowStore flows,
      WalletGateway wallet,
      RefundService refunds,
      LateChargeEvents events,
      EngineConfig config,
      SweepSchedule schedule,
      Clock clock,
      String instanceId,
      int workers,
      FailureCounter failures) {
    this(
        checks,
        sweeps,
        flows,
        wallet,
        refunds,
        events,
        new Timing(config, schedule, clock),
        instanceId,
        workers,
        failures,
        UnaryOperator.identity());
  }

  /** The checks' engine timing, the sweep's schedule and the clock. */
  public record Timing(EngineConfig config, SweepSchedule schedule, Clock clock) {}

  /**
   * @param wakeupsOr given the in-process wake-ups, returns those the checker schedules with (the
   *     broker's late-charge wake-ups when a broker is configured, else the in-process ones)
   */
  public LateChargeEngine(
      LateChargeStore checks,
      SweepStore sweeps,
      FlowStore flows,
      WalletGateway wallet,
      RefundService refunds,
      LateChargeEvents events,
      Timing timing,
      String instanceId,
      int workers,
      FailureCounter failures,
      UnaryOperator<WakeupScheduler> wakeupsOr) {
    EngineConfig config = timing.config();
    Clock clock = timing.clock();
    LeaseTokens leases = new LeaseTokens(instanceId, clock, config);
    this.failures = failures;
    AtomicReference<EngineRuntime> runtimeRef = new AtomicReference<>();
    this.wakeups = inProcessWakeups(clock, runtimeRef);
    this.checker =
        new LateChargeChecker(
            checks,
            flows,
            wallet,
            refunds,
            events,
            wakeupsOr.apply(wakeups),
            leases,
            config,
            clock);
    this.scanner = new Scanner(checks::claimDue, leases, config, events::scannerRound, clock);
    this.runtime =
        new EngineRuntime(
            "clearway-late-charge",
            checker::advance,
            scanner::runRound,
            config.scanInterval(),
            workers);
    runtimeRef.set(runtime);
    // The check stays leased to the dead worker until the lease expires; the scanner takes it
    // over. Only the id and the exception's class are logged.
    runtime.onWorkerDeath(
        (checkId, t) -> {
          failures.failed("late_charge_check");
          log.warn(
              "late-charge check {} died ({}); the late-charge scanner takes it over",
              checkId,
              t.getClass().getName());
        });
    this.sweep =
        new LateChargeSweep(
            sweeps, checks, wallet, refunds, events, leases, config, timing.schedule(), clock);
    this.sweepThread = new Thread(this::sweepLoop, "clearway-late-charge-sweep");
    this.sweepThread.setDaemon(true);
  }

  /** Wake-ups in this process: a due check is handed to the runtime's workers. */
  private static InProcessWakeups inProcessWakeups(
      Clock clock, AtomicReference<EngineRuntime> runtime) {
    return new InProcessWakeups(
        clock,
        checkId -> {
          EngineRuntime r = runtime.get();
          if (r != null) {
            r.wake(checkId, TriggerSource.WAKEUP);
          }
        },
        new InProcessWakeups.Settings(
            "late-charge-wakeups", QueueLimits.DEFAULT_WAKEUPS, Supervision.defaults()));
  }

  public LateChargeEngine start() {
    runtime.start();
    sweepThread.start();
    return this;
  }

  public LateChargeChecker checker() {
    return checker;
  }

  public Scanner scanner() {
    return scanner;
  }

  public LateChargeSweep sweep() {
    return sweep;
  }

  private void sweepLoop() {
    while (running) {
      try {
        sweep.runRound();
      } catch (RuntimeException e) {
        // A failed round leaves every cursor where it was; the next round starts from there.
        failures.failed("late_charge_sweep");
        log.warn("late-charge sweep round failed ({})", e.getClass().getName());
      }
      try {
        Thread.sleep(sweep.schedule().interval().toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void close() {
    running = false;
    sweepThread.interrupt();
    runtime.close();
    wakeups.close();
    try {
      sweepThread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
