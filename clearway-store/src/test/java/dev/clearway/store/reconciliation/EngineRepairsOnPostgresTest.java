package dev.clearway.store.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;
import static dev.clearway.core.reconciliation.domain.RepairOutcome.Result.ALREADY_DONE;
import static dev.clearway.core.reconciliation.domain.RepairOutcome.Result.APPLIED;
import static dev.clearway.core.reconciliation.domain.RepairOutcome.Result.LOST_RACE;
import static dev.clearway.core.reconciliation.domain.RepairOutcome.Result.REFUSED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.reconciliation.decision.RepairCommand.ConfirmBusinessSuccess;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundLateCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundUnattributedCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleAttemptPaid;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleFlowRefunded;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleRefundSucceeded;
import dev.clearway.core.reconciliation.decision.StatementEvidence;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundKind;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each automatic repair against the real stores: applied once through the engine's own transition
 * (its history row written), a second application changes nothing, and a command decided on a
 * version the row no longer has loses the race and writes nothing.
 */
class EngineRepairsOnPostgresTest {
  private RepairRig rig;

  @BeforeEach
  void setUp() {
    rig = new RepairRig().reset();
  }

  private StatementEvidence evidence(long amount) {
    return new StatementEvidence("acct-1", "ch_1", amount, RepairRig.CURRENCY, rig.now);
  }

  private long flowHistory(PayFlow f) {
    return rig.count("SELECT count(*) FROM pay_flow_history WHERE flow_id = ?", f.id());
  }

  private long reconHistory(PayFlow f, String to) {
    return rig.count(
        "SELECT count(*) FROM pay_flow_history WHERE flow_id = ? AND to_status = ?"
            + " AND trigger_source = 'RECONCILIATION'",
        f.id(),
        to);
  }

  @Test
  void aFlowPaidWithoutAttemptMovesPayingToPayedOnceAndIsWoken() {
    PayFlow f = rig.flow(PAYING);
    SettleAttemptPaid cmd = new SettleAttemptPaid(f.id(), f.version(), null, null, evidence(1250));

    RepairOutcome first = rig.repairs.apply(cmd, rig.now);
    long historyAfterFirst = flowHistory(f);
    RepairOutcome second = rig.repairs.apply(cmd, rig.now);

    assertThat(first.result()).isEqualTo(APPLIED);
    assertThat(rig.reread(f).status()).isEqualTo(PAYED);
    assertThat(rig.reread(f).version()).isEqualTo(f.version() + 1);
    assertThat(rig.reread(f).leaseOwner()).isNull();
    assertThat(reconHistory(f, "PAYED")).isEqualTo(1);
    assertThat(rig.wokenFlows).contains(f.id());
    assertThat(second.result()).isEqualTo(ALREADY_DONE);
    assertThat(flowHistory(f)).isEqualTo(historyAfterFirst);
  }

  @Test
  void aStaleFlowVersionLosesTheRaceAndWritesNothing() {
    PayFlow f = rig.flow(PAYING);
    long history = flowHistory(f);

    RepairOutcome out =
        rig.repairs.apply(
            new SettleAttemptPaid(f.id(), f.version() - 1, null, null, evidence(1250)), rig.now);

    assertThat(out.result()).isEqualTo(LOST_RACE);
    assertThat(rig.reread(f).status()).isEqualTo(PAYING);
    assertThat(rig.reread(f).version()).isEqualTo(f.version());
    assertThat(flowHistory(f)).isEqualTo(history);
    assertThat(rig.wokenFlows).isEmpty();
  }

  @Test
  void anAttemptIsRecordedSucceededWithReconciliationEvidenceAndTheFlowWoken() {
    PayFlow f = rig.flow(PAYING);
    Attempt a = rig.attemptOf(f);
    SettleAttemptPaid cmd =
        new SettleAttemptPaid(f.id(), f.version(), a.id(), a.version(), evidence(1250));

    RepairOutcome first = rig.repairs.apply(cmd, rig.now);
    RepairOutcome second = rig.repairs.apply(cmd, rig.now);

    assertThat(first.result()).isEqualTo(APPLIED);
    Attempt after = rig.channel.attempts().attempt(a.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(AttemptStatus.SUCCEEDED);
    assertThat(after.providerPaymentId()).isEqualTo("ch_1");
    assertThat(
            rig.count(
                "SELECT count(*) FROM payment_attempt_history WHERE attempt_id = ?"
                    + " AND to_status = 'SUCCEEDED' AND source = 'RECONCILIATION'",
                a.id()))
        .isEqualTo(1);
    assertThat(
            rig.count(
                "SELECT count(*) FROM recovery_task WHERE attempt_id = ? AND status = 'RESOLVED'",
                a.id()))
        .isEqualTo(1);
    assertThat(rig.finalAttempts).containsExactly(f.tradeOrderNo());
    assertThat(rig.wokenFlows).contains(f.id());
    // The flow itself is left to its engine, which reads the attempt's result.
    assertThat(rig.reread(f).status()).isEqualTo(PAYING);
    assertThat(second.result()).isEqualTo(ALREADY_DONE);
    assertThat(
            rig.count(
                "SELECT count(*) FROM payment_attempt_history WHERE attempt_id = ?"
                    + " AND to_status = 'SUCCEEDED'",
                a.id()))
        .isEqualTo(1);
  }

  @Test
  void aStaleAttemptVersionLosesTheRaceAndRecordsNoEvidence() {
    PayFlow f = rig.flow(PAYING);
    Attempt a = rig.attemptOf(f);
    long evidenceBefore =
        rig.count("SELECT count(*) FROM provider_evidence WHERE attempt_id = ?", a.id());

    RepairOutcome out =
        rig.repairs.apply(
            new SettleAttemptPaid(f.id(), f.version(), a.id(), a.version() + 7, evidence(1250)),
            rig.now);

    assertThat(out.result()).isEqualTo(LOST_RACE);
    assertThat(rig.channel.attempts().attempt(a.id()).orElseThrow().status()).isEqualTo(a.status());
    assertThat(rig.count("SELECT count(*) FROM provider_evidence WHERE attempt_id = ?", a.id()))
        .isEqualTo(evidenceBefore);
  }

  @Test
  void anAttemptChargedAnotherAmountIsRefused() {
    PayFlow f = rig.flow(PAYING);
    Attempt a = rig.attemptOf(f);

    RepairOutcome out =
        rig.repairs.apply(
            new SettleAttemptPaid(f.id(), f.version(), a.id(), a.version(), evidence(999)),
            rig.now);

    assertThat(out.result()).isEqualTo(REFUSED);
    assertThat(rig.channel.attempts().attempt(a.id()).orElseThrow().version())
        .isEqualTo(a.version());
  }

  @Test
  void aLateChargeIsRefundedOnceThroughALateChargeRefundOrder() {
    PayFlow f = rig.flow(CLOSED);
    RefundLateCharge cmd =
        new RefundLateCharge(
            f.id(), f.tradeOrderNo(), RepairRig.AMOUNT, RepairRig.CURRENCY, evidence(1250));

    RepairOutcome first = rig.repairs.apply(cmd, rig.now);
    RepairOutcome second = rig.repairs.apply(cmd, rig.now);

    assertThat(first.result()).isEqualTo(APPLIED);
    assertThat(second.result()).isEqualTo(ALREADY_DONE);
    RefundOrder refund = rig.refunds.findByFlow(f.id(), 0, 10).get(0);
    assertThat(rig.refunds.findByFlow(f.id(), 0, 10)).hasSize(1);
    assertThat(refund.refundNo()).isEqualTo(RefundNumbers.of(f.tradeOrderNo(), 1));
    assertThat(refund.amount()).isEqualTo(RepairRig.AMOUNT);
    assertThat(
            rig.count(
                "SELECT count(*) FROM refund_order WHERE flow_id = ? AND kind = ?",
                f.id(),
                RefundKind.LATE_CHARGE.name()))
        .isEqualTo(1);
    // The flow keeps its history: CLOSED stays CLOSED.
    assertThat(rig.reread(f).status()).isEqualTo(CLOSED);
  }

  @Test
  void theLateChargeCheckersRefundIsTheSameRefund() {
    PayFlow f = rig.flow(CLOSED);
    CreateOutcome checker =
        rig.refunds.create(NewRefund.lateCharge(f.id(), f.amount()), rig.leases.next(), rig.now);
    assertThat(checker).isInstanceOf(CreateOutcome.Created.class);

    RepairOutcome out =
        rig.repairs.apply(
            new RefundLateCharge(
                f.id(), f.tradeOrderNo(), RepairRig.AMOUNT, RepairRig.CURRENCY, evidence(1250)),
            rig.now);

    assertThat(out.result()).isEqualTo(ALREADY_DONE);
    assertThat(rig.refunds.findByFlow(f.id(), 0, 10)).hasSize(1);
  }

  @Test
  void aBusinessConfirmationMovesPayedToBizSuccessOnce() {
    PayFlow f = rig.flow(PAYING, PAYED);
    ConfirmBusinessSuccess cmd = new ConfirmBusinessSuccess(f.id(), f.version(), f.tradeOrderNo());

    RepairOutcome first = rig.repairs.apply(cmd, rig.now);
    long history = flowHistory(f);
    RepairOutcome second = rig.repairs.apply(cmd, rig.now);

    assertThat(first.result()).isEqualTo(APPLIED);
    assertThat(rig.reread(f).status()).isEqualTo(BIZ_SUCCESS);
    assertThat(reconHistory(f, "BIZ_SUCCESS")).isEqualTo(1);
    assertThat(
            rig.count(
                "SELECT count(*) FROM outbox_event WHERE aggregate_id = ? AND event_type <> ''",
                f.id()))
        .isPositive();
    assertThat(second.result()).isEqualTo(ALREADY_DONE);
    assertThat(flowHistory(f)).isEqualTo(history);
  }

  @Test
  void aBusinessConfirmationOnAStaleVersionLosesTheRace() {
    PayFlow f = rig.flow(PAYING, PAYED);

    RepairOutcome out =
        rig.repairs.apply(
            new ConfirmBusinessSuccess(f.id(), f.version() - 1, f.tradeOrderNo()), rig.now);

    assertThat(out.result()).isEqualTo(LOST_RACE);
    assertThat(rig.reread(f).status()).isEqualTo(PAYED);
    assertThat(rig.reread(f).version()).isEqualTo(f.version());
  }

  private RefundOrder processingRefund(PayFlow f, Lease heldBy) {
    CreateOutcome created =
        rig.refunds.create(
            new NewRefund(f.id(), 500, "damaged", "merchant-r", "k-" + f.id()),
            new Lease("creator", rig.now.minusSeconds(1)),
            rig.now.minusSeconds(20));
    RefundOrder pending = ((CreateOutcome.Created) created).refund();
    return rig.refunds
        .transition(
            new TransitionWrite(
                pending,
                RefundStatus.PROCESSING,
                null,
                heldBy == null ? rig.now.minusSeconds(1) : heldBy.until(),
                heldBy == null ? null : heldBy.token(),
                new HistoryNote(TriggerSource.SYNC, null, "TEST", 0),
                rig.now.minusSeconds(10),
                "creator"))
        .orElseThrow();
  }

  @Test
  void aRefundOrderTheStatementShowsSettledBecomesSuccessOnce() {
    PayFlow f = rig.flow(PAYING, PAYED, BIZ_SUCCESS);
    RefundOrder r = processingRefund(f, null);
    SettleRefundSucceeded cmd = new SettleRefundSucceeded(r.id(), r.version(), evidence(500));

    RepairOutcome first = rig.repairs.apply(cmd, rig.now);
    RepairOutcome second = rig.repairs.apply(cmd, rig.now);

    assertThat(first.result()).isEqualTo(APPLIED);
    RefundOrder after = rig.refunds.find(r.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(after.leaseOwner()).isNull();
    assertThat(
            rig.count(
                "SELECT count(*) FROM refund_order_history WHERE refund_id = ?"
                    + " AND to_status = 'SUCCESS' AND trigger_source = 'RECONCILIATION'",
                r.id()))
        .isEqualTo(1);
    assertThat(second.result()).isEqualTo(ALREADY_DONE);
    assertThat(rig.reread(f).status()).isEqualTo(BIZ_SUCCESS);
  }

  @Test
  void aRefundHeldByItsWorkerOrOnAStaleVersionIsNotTouched() {
    PayFlow f = rig.flow(PAYING, PAYED, BIZ_SUCCESS);
    RefundOrder held = processingRefund(f, new Lease("worker", rig.now.plusSeconds(30)));

    RepairOutcome whileHeld =
        rig.repairs.apply(
            new SettleRefundSucceeded(held.id(), held.version(), evidence(500)), rig.now);
    RepairOutcome stale =
        rig.repairs.apply(
            new SettleRefundSucceeded(held.id(), held.version() - 1, evidence(500)), rig.now);

    assertThat(whileHeld.result()).isEqualTo(LOST_RACE);
    assertThat(stale.result()).isEqualTo(LOST_RACE);
    RefundOrder after = rig.refunds.find(held.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(after.version()).isEqualTo(held.version());
    assertThat(after.leaseOwner()).isEqualTo("worker");
  }

  @Test
  void theFlowsOwnRefundSettledAtThePspMovesRefundingToRefundedOnce() {
    PayFlow f = rig.flow(PAYING, PAYED, REFUNDING);
    SettleFlowRefunded cmd = new SettleFlowRefunded(f.id(), f.version(), evidence(1250));

    RepairOutcome first = rig.repairs.apply(cmd, rig.now);
    RepairOutcome second = rig.repairs.apply(cmd, rig.now);
    RepairOutcome stale =
        rig.repairs.apply(
            new SettleFlowRefunded(rig.flow(PAYING, PAYED, REFUNDING).id(), 0, evidence(1250)),
            rig.now);

    assertThat(first.result()).isEqualTo(APPLIED);
    assertThat(rig.reread(f).status()).isEqualTo(REFUNDED);
    assertThat(reconHistory(f, "REFUNDED")).isEqualTo(1);
    assertThat(second.result()).isEqualTo(ALREADY_DONE);
    assertThat(stale.result()).isEqualTo(LOST_RACE);
  }

  @Test
  void anUnusedChargeGoesToRefundingUnderTheFlowsOwnNumber() {
    PayFlow f = rig.flow(PAYING, PAYED);
    RefundUnattributedCharge cmd =
        new RefundUnattributedCharge(
            f.id(), f.version(), f.tradeOrderNo(), f.refundOrderNo(), "other-trade");

    RepairOutcome wrongNumber =
        rig.repairs.apply(
            new RefundUnattributedCharge(
                f.id(), f.version(), f.tradeOrderNo(), "r_elsewhere", "other-trade"),
            rig.now);
    RepairOutcome stale =
        rig.repairs.apply(
            new RefundUnattributedCharge(
                f.id(), f.version() - 1, f.tradeOrderNo(), f.refundOrderNo(), "other-trade"),
            rig.now);
    RepairOutcome first = rig.repairs.apply(cmd, rig.now);
    RepairOutcome second = rig.repairs.apply(cmd, rig.now);

    assertThat(wrongNumber.result()).isEqualTo(REFUSED);
    assertThat(stale.result()).isEqualTo(LOST_RACE);
    assertThat(first.result()).isEqualTo(APPLIED);
    assertThat(rig.reread(f).status()).isEqualTo(REFUNDING);
    assertThat(rig.reread(f).refundOrderNo()).isEqualTo(f.refundOrderNo());
    assertThat(reconHistory(f, "REFUNDING")).isEqualTo(1);
    assertThat(rig.wokenFlows).containsExactly(f.id());
    assertThat(second.result()).isEqualTo(ALREADY_DONE);
  }
}
