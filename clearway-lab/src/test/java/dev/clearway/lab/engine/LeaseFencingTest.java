package dev.clearway.lab.engine;

import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.service.testkit.EngineHarness.T0;
import static dev.clearway.service.testkit.EngineHarness.goal;
import static dev.clearway.service.testkit.EngineHarness.payment;
import static dev.clearway.service.testkit.EngineHarness.trade;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.AdvanceResult.Outcome;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.ScriptedBusiness.Fulfil;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every write of a worker is fenced by its own lease, on the real engine over PostgreSQL: a worker
 * whose lease expired in the middle of a call and was claimed by another changes nothing, and its
 * refused write is counted ({@code leaseLost:pay_flow}).
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class LeaseFencingTest {
  private static final EngineConfig CONFIG = EngineConfig.compressed();
  private static final Duration LEASE = CONFIG.lease();
  private static final Instant DEADLINE = T0.plusSeconds(10);
  private static final GoalKey GOAL = goal("R:lease");

  private final EngineHarness h = EngineHarness.fresh(CONFIG);

  @AfterEach
  void invariantsHold() {
    assertThat(Invariants.safety(h)).isEmpty();
  }

  /** A scanner of another worker claims every due flow and keeps the triggers for later. */
  private List<Trigger> claimedByAnotherWorker() {
    List<Trigger> held = new ArrayList<>();
    h.scanner.runRound((id, trigger) -> held.add(trigger));
    return held;
  }

  /** A PAYED flow whose business never completes, rescheduled and unleased after its start. */
  private void payedFlowWaitingForTheBusiness() {
    h.business.script(trade(1), Fulfil.NEVER);
    h.start(GOAL, DEADLINE);
    assertThat(h.flow(1).status()).isEqualTo(PAYED);
    assertThat(h.flow(1).leaseOwner()).isNull();
  }

  @Test
  void aWorkerWhoseLeaseWasTakenOverCannotDecideARefundWhileTheNewHolderWorks() {
    payedFlowWaitingForTheBusiness();
    h.clock.set(DEADLINE.minusMillis(1));
    List<Trigger> takeover = new ArrayList<>();
    // While worker A waits for the business, its lease runs out (and the deadline with its grace)
    // and worker B claims the flow; B has not written anything yet.
    h.business.duringNextCall(
        g -> {
          h.clock.advance(LEASE.plusMillis(1));
          takeover.addAll(claimedByAnotherWorker());
        });

    AdvanceResult a = h.advance(1, TriggerSource.WAKEUP);

    assertThat(takeover).hasSize(1);
    PayFlow held = h.flow(1);
    assertThat(a.outcome()).isEqualTo(Outcome.BUSY);
    assertThat(held.status()).as("A's REFUNDING was refused by the lease fence").isEqualTo(PAYED);
    assertThat(held.leaseOwner()).isEqualTo(takeover.get(0).lease().token());
    assertThat(h.wallet.calls("REFUND"))
        .as("no refund sent by a worker without the lease")
        .isEmpty();
    assertThat(h.path(1)).doesNotContain("REFUNDING");
    assertThat(h.events.count("leaseLost:pay_flow")).isEqualTo(1);

    // The holder decides: the deadline has passed without the goods, so it refunds, once.
    AdvanceResult b = h.advancer.advance(1, takeover.get(0));
    assertThat(b.outcome()).isEqualTo(Outcome.TERMINAL);
    assertThat(h.flow(1).status()).isEqualTo(REFUNDED);
    assertThat(h.wallet.ledger()).filteredOn(e -> e.kind() == LedgerEntry.Kind.REFUND).hasSize(1);
    assertThat(h.history(1))
        .filteredOn(e -> "REFUNDING".equals(e.to()))
        .singleElement()
        .satisfies(e -> assertThat(e.trigger()).isEqualTo("SCANNER"));
  }

  @Test
  void aRescheduleByAWorkerThatLostItsLeaseChangesNothingAndIsCounted() {
    payedFlowWaitingForTheBusiness();
    int wakeups = h.wakeups.all().size();
    List<Trigger> takeover = new ArrayList<>();
    h.business.duringNextCall(
        g -> {
          h.clock.advance(LEASE.plusMillis(1)); // still before the deadline
          takeover.addAll(claimedByAnotherWorker());
        });

    AdvanceResult a = h.advance(1, TriggerSource.WAKEUP);

    PayFlow held = h.flow(1);
    assertThat(a.outcome()).isEqualTo(Outcome.BUSY);
    assertThat(held.leaseOwner()).isEqualTo(takeover.get(0).lease().token());
    assertThat(held.nextRetryTime()).isEqualTo(takeover.get(0).lease().until());
    assertThat(held.retryCount()).isEqualTo(1);
    assertThat(h.wakeups.all().size())
        .as("no wake-up from the refused reschedule")
        .isEqualTo(wakeups);
    assertThat(h.events.count("leaseLost:pay_flow")).isEqualTo(1);
  }

  @Test
  void advanceCreatedDoesNothingOnceItsCreationLeaseExpiredInTheQueueAndWasTakenOver() {
    List<Runnable> queue = new ArrayList<>();
    Executor queued = queue::add; // the synchronous advance waits in a saturated pool

    h.payments.start(payment(GOAL, DEADLINE), Duration.ofMillis(1), queued);
    assertThat(queue).hasSize(1);
    h.clock.advance(LEASE.plusMillis(1));
    List<Trigger> takeover = claimedByAnotherWorker();
    assertThat(takeover).hasSize(1);

    queue.get(0).run();

    // Created already in PAYING (creation and start are one commit), its charge not sent yet.
    PayFlow flow = h.flow(1);
    assertThat(flow.status()).isEqualTo(PAYING);
    assertThat(flow.version()).isEqualTo(1);
    assertThat(flow.leaseOwner()).isEqualTo(takeover.get(0).lease().token());
    assertThat(h.wallet.calls()).as("no payment sent from the stale creation row").isEmpty();
    assertThat(h.path(1)).containsExactly("WAIT_PAY", "PAYING");
  }

  @Test
  void advanceCreatedWhoseLeaseExpiredUntakenClaimsTheFlowAfreshAndPays() {
    List<Runnable> queue = new ArrayList<>();
    h.payments.start(payment(GOAL, DEADLINE), Duration.ofMillis(1), queue::add);
    h.clock.advance(LEASE.plusMillis(1)); // nobody took the flow over meanwhile

    queue.get(0).run();

    assertThat(h.wallet.calls("PAY")).hasSize(1);
    assertThat(h.flow(1).isTerminal()).isTrue();
    assertThat(h.history(1).get(1).trigger()).isEqualTo("SYNC");
  }
}
