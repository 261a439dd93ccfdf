package dev.clearway.core.modelcheck.latecharge;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.latecharge.engine.LateChargeChecker;
import dev.clearway.core.latecharge.port.LateChargeEvents;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.core.modelcheck.ReplayPorts;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.Show;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.refund.engine.RefundAdvancer;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The real late-charge code each worker runs, wired to yield points: a late-charge scanner round
 * ({@link LateChargeChecker} through {@link Scanner}), a wake-up of the check, and a refund scanner
 * round for the LATE_CHARGE refund the checker requests through the real {@link RefundService}. One
 * flow CLOSED without payment, whose order the wallet may nevertheless have charged.
 */
final class LateChargeRig {
  static final Instant T0 = Show.T0;
  static final long CHECK_ID = 1;
  static final GoalKey GOAL = GoalKey.ofDefaultMerchant(7, "renew", "R:7:1");
  static final OrderNumbers NUMBERS = OrderNumbers.derive(GOAL.userId(), 1);
  static final long AMOUNT = 1_000;
  static final PayFlow CLOSED =
      new PayFlow(
          1,
          GOAL,
          1,
          NUMBERS.tradeOrderNo(),
          NUMBERS.refundOrderNo(),
          FlowStatus.CLOSED,
          2,
          AMOUNT,
          "CNY",
          T0.plusSeconds(30),
          T0,
          0,
          "CANCELLED",
          ReviewState.NONE,
          null,
          null,
          T0,
          T0,
          null);
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

  static final String SCAN = "late-charge scanner";
  static final String WAKEUP = "late-charge wake-up";
  static final String REFUND_SCAN = "refund scanner";

  private LateChargeRig() {}

  static Consumer<Session> program(WorkerState worker, LateChargeWorld world) {
    return session -> {
      Clock clock = ReplayPorts.clock(session);
      LateChargeStore checks = ReplayPorts.port(LateChargeStore.class, session, world.checks());
      RefundStore refunds = ReplayPorts.port(RefundStore.class, session, world.refunds());
      FlowStore flows = ReplayPorts.port(FlowStore.class, session, world.flows());
      WalletGateway wallet = ReplayPorts.port(WalletGateway.class, session, world.wallet());
      LeaseTokens tokens = new LeaseTokens(worker.runId(), clock, CONFIG);
      RefundAdvancer refundAdvancer =
          new RefundAdvancer(
              refunds,
              flows,
              wallet,
              WakeupScheduler.NONE,
              RefundEvents.NONE,
              tokens,
              CONFIG,
              clock);
      RefundService service =
          new RefundService(refunds, refundAdvancer, tokens, RefundEvents.NONE, clock);
      LateChargeChecker checker =
          new LateChargeChecker(
              checks, flows, wallet, service, LateChargeEvents.NONE, tokens, CONFIG, clock);
      switch (worker.program()) {
        case SCAN ->
            new Scanner(checks::claimDue, tokens, CONFIG, (hits, ms) -> {}, clock)
                .runRound(checker::advance);
        case WAKEUP -> checker.advance(CHECK_ID, Trigger.unclaimed(TriggerSource.WAKEUP));
        case REFUND_SCAN ->
            new Scanner(refunds::claimDue, tokens, CONFIG, (hits, ms) -> {}, clock)
                .runRound(refundAdvancer::advance);
        default -> throw new IllegalArgumentException(worker.program());
      }
    };
  }
}
