package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.engine.LateChargeChecker.Outcome;
import dev.clearway.core.refund.domain.RefundKind;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A charge that lands on an order already ended without payment is a durable check: asked again
 * after timeouts and crashes (also by a restarted process), refunded once through a LATE_CHARGE
 * refund order when the wallet confirms it, ended when the wallet definitely holds no charge, and
 * handed to a person when the wallet never answers within the budget. A worker that lost its lease
 * writes nothing.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class LateChargeTest {
  private LateChargeRig rig;

  @BeforeEach
  void setUp() {
    rig = LateChargeRig.fresh();
  }

  private void assertRefundedOnce(PayFlow flow) {
    LateChargeCheck check = rig.check(flow);
    assertThat(check.status()).isEqualTo(LateChargeStatus.REFUND_REQUESTED);
    List<RefundOrder> refunds = rig.refunds(flow);
    assertThat(refunds).hasSize(1);
    RefundOrder refund = refunds.get(0);
    assertThat(check.refundId()).isEqualTo(refund.id());
    assertThat(rig.count("SELECT count(*) FROM refund_order WHERE kind = 'LATE_CHARGE'"))
        .isEqualTo(1);
    assertThat(rig.e.refund(refund.id()).status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(refund.refundNo()).startsWith("a_").isNotEqualTo(flow.refundOrderNo());
    assertThat(rig.refundedAtTheWallet(flow)).isEqualTo(flow.amount());
    assertThat(rig.e.h.flow(flow.id()).status()).as("never revived").isEqualTo(flow.status());
  }

  @Test
  void aLateChargeWhoseFirstCheckTimedOutIsRefundedAfterTheProcessRestarts() {
    PayFlow failed = rig.failedThenCharged();
    assertThat(rig.callback(failed, "evt-1")).isTrue();
    LateChargeCheck suspected = rig.check(failed);
    assertThat(suspected.status()).isEqualTo(LateChargeStatus.PENDING);
    assertThat(suspected.source()).isEqualTo(SuspicionSource.CALLBACK);

    // The first check times out: nothing is known, so the check stays and is asked again later.
    rig.e.h.wallet.setDown(true);
    assertThat(rig.scan()).isEqualTo(1);
    LateChargeCheck after = rig.check(failed);
    assertThat(after.status()).isEqualTo(LateChargeStatus.PENDING);
    assertThat(after.retryCount()).isEqualTo(1);
    assertThat(after.leaseOwner()).isNull();
    assertThat(after.nextCheckTime()).isAfter(rig.e.h.clock.instant());
    assertThat(rig.refunds(failed)).isEmpty();

    // The process dies. A new one, with nothing in memory, finds the check in the database.
    rig.e.h.wallet.setDown(false);
    LateChargeRig restarted = rig.restart();
    rig.e.h.clock.advance(Duration.ofSeconds(2));
    assertThat(restarted.scan()).isEqualTo(1);

    assertRefundedOnce(failed);
  }

  @Test
  void aCheckWhoseWorkerDiedIsTakenOverOnceItsLeaseExpires() {
    PayFlow failed = rig.failedThenCharged();
    rig.callback(failed, "evt-1");
    rig.e.h.wallet.duringNextCall(
        no -> {
          throw new SimulatedCrash("query " + no);
        });

    assertThat(rig.scan()).isEqualTo(1);
    assertThat(rig.crashes()).isEqualTo(1);
    assertThat(rig.check(failed).leaseOwner()).as("held by the dead worker").isNotNull();
    assertThat(rig.scan()).as("not before the lease expires").isZero();

    rig.e.h.clock.advance(RefundTestEngine.CONFIG.lease().plusMillis(1));
    assertThat(rig.restart().scan()).isEqualTo(1);

    assertRefundedOnce(failed);
  }

  @Test
  void duplicatedCallbacksFindOneCheckAndCreateOneRefund() {
    PayFlow failed = rig.failedThenCharged();

    assertThat(rig.callback(failed, "evt-1")).isTrue();
    assertThat(rig.callback(failed, "evt-1")).as("a replay").isFalse();
    assertThat(rig.callback(failed, "evt-2")).as("another event, same order").isTrue();
    assertThat(rig.count("SELECT count(*) FROM late_charge_check")).isEqualTo(1);

    rig.scan();
    // Later hints, and the checks they cannot start again, change nothing.
    rig.callback(failed, "evt-3");
    rig.e.h.clock.advance(Duration.ofMinutes(1));
    assertThat(rig.scan()).isZero();

    assertThat(rig.count("SELECT count(*) FROM late_charge_check")).isEqualTo(1);
    assertRefundedOnce(failed);
  }

  @Test
  void aDefiniteNoChargeEndsTheCheckWithoutARefund() {
    PayFlow failed = rig.failedAndClosedAtTheWallet();
    rig.callback(failed, "evt-1");

    assertThat(rig.scan()).isEqualTo(1);

    LateChargeCheck check = rig.check(failed);
    assertThat(check.status()).isEqualTo(LateChargeStatus.NO_CHARGE);
    assertThat(check.lastErrorCode()).isEqualTo("ORDER_CLOSED");
    assertThat(rig.refunds(failed)).isEmpty();
    assertThat(rig.e.h.wallet.calls("REFUND")).isEmpty();
    rig.e.h.clock.advance(Duration.ofHours(1));
    assertThat(rig.scan()).as("an ended check is never asked again").isZero();
  }

  @Test
  void anUnknowableAnswerPastItsBudgetLandsInManualReviewAndIsStillAskedSlowly() {
    PayFlow failed = rig.failedThenCharged();
    rig.callback(failed, "evt-1");
    rig.e.h.wallet.setDown(true);

    int budget = RefundTestEngine.CONFIG.retryBudget();
    for (int i = 0; i <= budget; i++) {
      assertThat(rig.scan()).as("round %d", i).isEqualTo(1);
      rig.e.h.clock.advance(RefundTestEngine.CONFIG.backoffCap());
    }

    LateChargeCheck manual = rig.check(failed);
    assertThat(manual.status()).isEqualTo(LateChargeStatus.MANUAL);
    assertThat(manual.lastErrorCode()).isEqualTo("WALLET_DOWN");
    assertThat(manual.leaseOwner()).isNull();
    assertThat(rig.ops.manual(Long.MAX_VALUE, 10))
        .extracting(m -> m.flowId())
        .containsExactly(failed.id());
    assertThat(rig.ops.openByStatus()).containsEntry("MANUAL", 1L);
    assertThat(rig.events.count("checked:MANUAL")).isEqualTo(1);
    assertThat(rig.refunds(failed)).isEmpty();

    // Not dropped: asked again at the escalated interval, and the wallet's answer still ends it.
    assertThat(rig.scan()).isZero();
    rig.e.h.clock.advance(RefundTestEngine.CONFIG.escalatedInterval());
    assertThat(rig.scan()).isEqualTo(1);
    assertThat(rig.check(failed).status()).isEqualTo(LateChargeStatus.MANUAL);
    rig.e.h.wallet.setDown(false);
    rig.e.h.clock.advance(RefundTestEngine.CONFIG.escalatedInterval());
    assertThat(rig.scan()).isEqualTo(1);

    assertRefundedOnce(failed);
    assertThat(rig.ops.manual(Long.MAX_VALUE, 10)).isEmpty();
  }

  @Test
  void aWorkerWhoseLeaseWasTakenOverWritesNothing() {
    PayFlow failed = rig.failedThenCharged();
    rig.callback(failed, "evt-1");
    long checkId = rig.check(failed).id();
    LateChargeRig other = rig.restart();
    Lease[] taken = new Lease[1];
    // While the first worker waits for the wallet, its lease expires and another worker claims.
    rig.e.h.wallet.duringNextCall(
        no -> {
          rig.e.h.clock.advance(RefundTestEngine.CONFIG.lease().plusMillis(1));
          taken[0] = other.leases.next();
          assertThat(other.checks.claim(checkId, taken[0], rig.e.h.clock.instant())).isTrue();
        });
    LateChargeCheck before = rig.check(failed);

    Outcome first = rig.wake(checkId);

    assertThat(first).isEqualTo(Outcome.BUSY);
    LateChargeCheck untouched = rig.check(failed);
    assertThat(untouched.status()).isEqualTo(LateChargeStatus.PENDING);
    assertThat(untouched.version()).isEqualTo(before.version());
    assertThat(untouched.retryCount()).isEqualTo(before.retryCount());
    assertThat(untouched.lastResult()).isNull();
    assertThat(untouched.leaseOwner()).isEqualTo(taken[0].token());
    assertThat(rig.refunds(failed)).as("no refund requested by the worker that lost").isEmpty();
    assertThat(rig.events.count("leaseLost:late_charge_check")).isEqualTo(1);

    // The same holds for a reschedule: an unanswered query by a worker that lost its lease.
    Lease mine = rig.leases.next();
    rig.e.h.clock.advance(RefundTestEngine.CONFIG.lease().plusMillis(1));
    assertThat(rig.checks.claim(checkId, mine, rig.e.h.clock.instant())).isTrue();
    rig.e.h.wallet.setDown(true);
    rig.e.h.wallet.duringNextCall(
        no -> {
          rig.e.h.clock.advance(RefundTestEngine.CONFIG.lease().plusMillis(1));
          taken[0] = other.leases.next();
          assertThat(other.checks.claim(checkId, taken[0], rig.e.h.clock.instant())).isTrue();
        });
    assertThat(rig.checker.advance(checkId, Trigger.held(TriggerSource.SCANNER, mine)))
        .isEqualTo(Outcome.BUSY);
    LateChargeCheck stillUntouched = rig.check(failed);
    assertThat(stillUntouched.retryCount()).isZero();
    assertThat(stillUntouched.version()).isEqualTo(before.version());
    assertThat(stillUntouched.leaseOwner()).isEqualTo(taken[0].token());

    // The holder finishes the check.
    rig.e.h.wallet.setDown(false);
    assertThat(other.checker.advance(checkId, Trigger.held(TriggerSource.SCANNER, taken[0])))
        .isEqualTo(Outcome.TERMINAL);
    assertRefundedOnce(failed);
  }

  @Test
  void aFlowThatDidNotEndUnpaidGetsNoCheck() {
    PayFlow paid = rig.e.paidFlow();

    assertThat(rig.callback(paid, "evt-paid")).isTrue();
    assertThat(rig.checks.suspect(paid.id(), SuspicionSource.SWEEP, rig.e.h.clock.instant()))
        .isEmpty();

    assertThat(rig.count("SELECT count(*) FROM late_charge_check")).isZero();
    assertThat(rig.e.h.flow(paid.id()).status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(rig.count("SELECT count(*) FROM refund_order")).isZero();
    assertThat(RefundKind.LATE_CHARGE.allows(FlowStatus.BIZ_SUCCESS)).isFalse();
  }
}
