package dev.clearway.core.modelcheck.flow;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Advancer;
import dev.clearway.core.flow.engine.CancelService;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.modelcheck.ReplayPorts;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The real engine code each worker runs, wired to yield points: the synchronous payment entry, a
 * wake-up (or callback), a scanner round, and a client's cancel. Small timing so that leases,
 * backoffs, the deadline and its grace all fall within a few clock steps.
 */
final class FlowRig {
  static final long FLOW_ID = 1;
  static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  static final GoalKey GOAL = GoalKey.ofDefaultMerchant(7, "renew", "R:7:1");
  static final NewPayment PAYMENT = new NewPayment(GOAL, 1_000, "CNY", T0.plusSeconds(30));
  static final EngineConfig CONFIG =
      new EngineConfig(
          Duration.ofSeconds(10),
          Duration.ofSeconds(2),
          Duration.ofSeconds(8),
          1,
          Duration.ofSeconds(20),
          Duration.ofSeconds(5),
          10,
          Duration.ofSeconds(1),
          Duration.ofSeconds(60));

  static final String START = "payment request";
  static final String WAKEUP = "wake-up";
  static final String SCAN = "scanner";
  static final String CANCEL = "cancel";

  private FlowRig() {}

  /** The program of {@code worker}, reading and writing {@code world} through yield points. */
  static Consumer<Session> program(WorkerState worker, FlowWorld world) {
    return session -> {
      Clock clock = ReplayPorts.clock(session);
      FlowStore store = ReplayPorts.port(FlowStore.class, session, world.store());
      WalletGateway wallet = ReplayPorts.port(WalletGateway.class, session, world.wallet());
      BusinessGateway business = ReplayPorts.port(BusinessGateway.class, session, world.business());
      LeaseTokens tokens = new LeaseTokens(worker.runId(), clock, CONFIG);
      Advancer advancer =
          new Advancer(
              store,
              wallet,
              business,
              WakeupScheduler.NONE,
              EngineEvents.NONE,
              tokens,
              CONFIG,
              clock);
      switch (worker.program()) {
        case START -> new PaymentService(store, advancer, tokens, clock).start(PAYMENT);
        case WAKEUP -> advancer.advance(FLOW_ID, Trigger.unclaimed(TriggerSource.WAKEUP));
        case SCAN ->
            new Scanner(store, tokens, CONFIG, EngineEvents.NONE, clock)
                .runRound(advancer::advance);
        case CANCEL -> new CancelService(store, id -> {}, clock).cancel(FLOW_ID);
        default -> throw new IllegalArgumentException(worker.program());
      }
    };
  }
}
