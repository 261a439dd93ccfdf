package dev.clearway.core.modelcheck.refund;

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
import dev.clearway.core.modelcheck.ReplayPorts;
import dev.clearway.core.modelcheck.Session;
import dev.clearway.core.modelcheck.Show;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.refund.domain.NewRefund;
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
 * The real refund code each worker runs, wired to yield points: a merchant's refund request ({@link
 * RefundService}, which creates and then advances under the creation lease), a wake-up of one
 * refund, and a refund scanner round. One BIZ_SUCCESS payment of 1000, charged.
 */
final class RefundRig {
  static final Instant T0 = Show.T0;
  static final GoalKey GOAL = GoalKey.ofDefaultMerchant(7, "renew", "R:7:1");
  static final OrderNumbers NUMBERS = OrderNumbers.derive(GOAL.userId(), 1);
  static final PayFlow PAID =
      new PayFlow(
          1,
          GOAL,
          1,
          NUMBERS.tradeOrderNo(),
          NUMBERS.refundOrderNo(),
          FlowStatus.BIZ_SUCCESS,
          4,
          1_000,
          "CNY",
          T0.plusSeconds(30),
          T0,
          0,
          null,
          ReviewState.NONE,
          null,
          null,
          T0,
          T0,
          null);
  static final NewRefund FIRST =
      new NewRefund(1, 600, "damaged", GoalKey.DEFAULT_MERCHANT, "key-1");
  static final NewRefund SECOND = new NewRefund(1, 600, "late", GoalKey.DEFAULT_MERCHANT, "key-2");
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

  static final String REQUEST = "refund request";
  static final String SECOND_REQUEST = "second refund request";
  static final String WAKEUP = "wake-up #";
  static final String SCAN = "refund scanner";

  private RefundRig() {}

  static Consumer<Session> program(WorkerState worker, RefundWorld world) {
    return session -> {
      Clock clock = ReplayPorts.clock(session);
      RefundStore store = ReplayPorts.port(RefundStore.class, session, world.store());
      FlowStore flows = ReplayPorts.port(FlowStore.class, session, world.flows());
      WalletGateway wallet = ReplayPorts.port(WalletGateway.class, session, world.wallet());
      LeaseTokens tokens = new LeaseTokens(worker.runId(), clock, CONFIG);
      RefundAdvancer advancer =
          new RefundAdvancer(
              store, flows, wallet, WakeupScheduler.NONE, RefundEvents.NONE, tokens, CONFIG, clock);
      RefundService service = new RefundService(store, advancer, tokens, RefundEvents.NONE, clock);
      String program = worker.program();
      if (program.equals(REQUEST)) {
        service.request(FIRST);
      } else if (program.equals(SECOND_REQUEST)) {
        service.request(SECOND);
      } else if (program.equals(SCAN)) {
        new Scanner(store::claimDue, tokens, CONFIG, (hits, ms) -> {}, clock)
            .runRound(advancer::advance);
      } else {
        long id = Long.parseLong(program.substring(WAKEUP.length()));
        advancer.advance(id, Trigger.unclaimed(TriggerSource.WAKEUP));
      }
    };
  }
}
