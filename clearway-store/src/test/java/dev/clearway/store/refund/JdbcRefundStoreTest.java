package dev.clearway.store.refund;

import static dev.clearway.store.refund.RefundFixtures.LEASE;
import static dev.clearway.store.refund.RefundFixtures.MERCHANT;
import static dev.clearway.store.refund.RefundFixtures.PAID;
import static dev.clearway.store.refund.RefundFixtures.bizSuccess;
import static dev.clearway.store.refund.RefundFixtures.count;
import static dev.clearway.store.refund.RefundFixtures.created;
import static dev.clearway.store.refund.RefundFixtures.flow;
import static dev.clearway.store.refund.RefundFixtures.flowOf;
import static dev.clearway.store.refund.RefundFixtures.lease;
import static dev.clearway.store.refund.RefundFixtures.move;
import static dev.clearway.store.refund.RefundFixtures.now;
import static dev.clearway.store.refund.RefundFixtures.path;
import static dev.clearway.store.refund.RefundFixtures.refunds;
import static dev.clearway.store.refund.RefundFixtures.request;
import static dev.clearway.store.refund.RefundFixtures.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refund.port.RefundStore.RescheduleWrite;
import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Creation rules, idempotency, CAS transitions, reschedules and leases of refund_order. */
@Tag(TestDatabase.MYSQL_FAMILY)
class JdbcRefundStoreTest {

  @BeforeEach
  void reset() {
    RefundFixtures.reset();
  }

  // ---- creation ----------------------------------------------------------------------------

  @Test
  void createsAPendingRefundHeldByItsCreatorWithItsCreationHistory() {
    Instant now = now();
    PayFlow flow = bizSuccess(now);

    RefundOrder r = created(flow, 500, "k-1", now);

    assertThat(r.flowId()).isEqualTo(flow.id());
    assertThat(r.seq()).isEqualTo(1);
    assertThat(r.tradeOrderNo()).isEqualTo(flow.tradeOrderNo());
    assertThat(r.refundNo()).isEqualTo("a_" + flow.tradeOrderNo() + "_1");
    assertThat(r.refundNo()).isNotEqualTo(flow.refundOrderNo());
    assertThat(r.amount()).isEqualTo(500);
    assertThat(r.currency()).isEqualTo("CNY");
    assertThat(r.reason()).isEqualTo("damaged on arrival");
    assertThat(r.requestedBy()).isEqualTo("merchant-a");
    assertThat(r.status()).isEqualTo(RefundStatus.PENDING);
    assertThat(r.version()).isZero();
    assertThat(r.leaseOwner()).isEqualTo("creator");
    assertThat(r.nextRetryTime()).isEqualTo(now.plus(LEASE));
    assertThat(r.createdAt()).isEqualTo(now);
    assertThat(path(r.id())).containsExactly("null->PENDING@0");
    assertThat(refunds().find(r.id())).contains(r);
  }

  @Test
  void seqAndNumbersCountPerFlow() {
    Instant now = now();
    PayFlow a = bizSuccess(now);
    PayFlow b = bizSuccess(now);

    RefundOrder a1 = created(a, 100, "a-1", now);
    RefundOrder b1 = created(b, 100, "b-1", now);
    RefundOrder a2 = created(a, 100, "a-2", now);
    RefundOrder a3 = created(a, 100, "a-3", now);

    assertThat(List.of(a1.seq(), a2.seq(), a3.seq(), b1.seq())).containsExactly(1, 2, 3, 1);
    assertThat(a3.refundNo()).isEqualTo("a_" + a.tradeOrderNo() + "_3");
    assertThat(refunds().findByFlow(a.id(), 0, 100))
        .extracting(RefundOrder::id)
        .containsExactly(a1.id(), a2.id(), a3.id());
  }

  @Test
  void onlyABizSuccessFlowMayBeRefundedAndARefusalWritesNothing() {
    Instant now = now();
    Map<FlowStatus, PayFlow> flows =
        Map.of(
            FlowStatus.WAIT_PAY, flow(now),
            FlowStatus.PAYING, flow(now, FlowStatus.PAYING),
            FlowStatus.PAY_FAIL, flow(now, FlowStatus.PAYING, FlowStatus.PAY_FAIL),
            FlowStatus.PAYED, flow(now, FlowStatus.PAYING, FlowStatus.PAYED),
            FlowStatus.REFUNDING,
                flow(now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.REFUNDING),
            FlowStatus.REFUNDED,
                flow(
                    now,
                    FlowStatus.PAYING,
                    FlowStatus.PAYED,
                    FlowStatus.REFUNDING,
                    FlowStatus.REFUNDED),
            FlowStatus.CLOSED, flow(now, FlowStatus.CLOSED));

    flows.forEach(
        (status, flow) ->
            assertThat(refunds().create(request(flow, 100, "k-" + status), lease("c", now), now))
                .isEqualTo(new CreateOutcome.NotAllowed(status)));
    assertThat(
            refunds()
                .create(
                    new NewRefund(999_999, 100, "x", MERCHANT, "k-missing"), lease("c", now), now))
        .isEqualTo(new CreateOutcome.FlowNotFound());

    assertThat(count("SELECT count(*) FROM refund_order")).isZero();
    assertThat(count("SELECT count(*) FROM refund_order_history")).isZero();
  }

  @Test
  void theAmountMustFitInWhatIsPaidMinusWhatIsHeld() {
    Instant now = now();
    PayFlow flow = bizSuccess(now);
    created(flow, 1_500, "k-1", now);

    assertThat(refunds().create(request(flow, 500, "k-2"), lease("c", now), now))
        .isEqualTo(new CreateOutcome.ExceedsPayment(PAID, 1_500));
    created(flow, PAID - 1_500, "k-3", now);
    CreateOutcome full = refunds().create(request(flow, 1, "k-4"), lease("c", now), now);

    assertThat(full).isEqualTo(new CreateOutcome.ExceedsPayment(PAID, PAID));
    assertThat(((CreateOutcome.ExceedsPayment) full).available()).isZero();
    assertThat(count("SELECT count(*) FROM refund_order")).isEqualTo(2);
    assertThat(count("SELECT count(*) FROM refund_order_history")).isEqualTo(2);
  }

  @Test
  void failedAndClosedRefundsReleaseTheirAmountButKeepTheirSeq() {
    Instant now = now();
    PayFlow flow = bizSuccess(now);
    RefundOrder failed = created(flow, PAID, "k-1", now);
    move(move(failed, RefundStatus.PROCESSING, now), RefundStatus.FAIL, now);
    RefundOrder closed = created(flow, PAID, "k-2", now);
    move(closed, RefundStatus.CLOSED, now);

    RefundOrder third = created(flow, PAID, "k-3", now);

    assertThat(third.seq()).isEqualTo(3);
    assertThat(refunds().create(request(flow, 1, "k-4"), lease("c", now), now))
        .isEqualTo(new CreateOutcome.ExceedsPayment(PAID, PAID));
  }

  @Test
  void theSameKeyWithTheSameParametersReplaysAndWithOthersIsRefused() {
    Instant now = now();
    PayFlow flow = bizSuccess(now);
    PayFlow other = bizSuccess(now);
    RefundOrder first = created(flow, 700, "k-1", now);
    RefundOrder sent = move(first, RefundStatus.PROCESSING, now);

    CreateOutcome replay = refunds().create(request(flow, 700, "k-1"), lease("c2", now), now);
    CreateOutcome otherAmount = refunds().create(request(flow, 701, "k-1"), lease("c3", now), now);
    CreateOutcome otherFlow = refunds().create(request(other, 700, "k-1"), lease("c4", now), now);
    CreateOutcome otherReason =
        refunds()
            .create(new NewRefund(flow.id(), 700, "late", MERCHANT, "k-1"), lease("c", now), now);

    assertThat(replay).isEqualTo(new CreateOutcome.Replayed(sent));
    assertThat(otherAmount).isEqualTo(new CreateOutcome.KeyReused());
    assertThat(otherFlow).isEqualTo(new CreateOutcome.KeyReused());
    assertThat(otherReason).isEqualTo(new CreateOutcome.KeyReused());
    assertThat(count("SELECT count(*) FROM refund_order")).isEqualTo(1);
  }

  @Test
  void anotherMerchantsFlowAnswersAsAMissingFlowAndKeysAreScopedToTheMerchant() {
    Instant now = now();
    PayFlow flowOfA = bizSuccess(now);
    RefundOrder refundOfA = created(flowOfA, 700, "shared-key", now);

    CreateOutcome probe =
        refunds()
            .create(
                new NewRefund(flowOfA.id(), 100, "damaged on arrival", "merchant-b", "probe"),
                lease("c", now),
                now);
    PayFlow flowOfB =
        flowOf("merchant-b", now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);
    CreateOutcome own =
        refunds()
            .create(
                new NewRefund(flowOfB.id(), 700, "damaged on arrival", "merchant-b", "shared-key"),
                lease("c", now),
                now);

    assertThat(probe).isEqualTo(new CreateOutcome.FlowNotFound());
    assertThat(own).isInstanceOf(CreateOutcome.Created.class);
    RefundOrder refundOfB = ((CreateOutcome.Created) own).refund();
    assertThat(refundOfB.flowId()).isEqualTo(flowOfB.id());
    assertThat(refundOfB.merchantId()).isEqualTo("merchant-b");
    assertThat(refundOfA.merchantId()).isEqualTo(MERCHANT);
    assertThat(count("SELECT count(*) FROM refund_order")).isEqualTo(2);
  }

  // ---- transitions -------------------------------------------------------------------------

  @Test
  void aTransitionIsACasThatWritesItsHistoryInTheSameStatement() {
    Instant now = now();
    RefundOrder pending = created(bizSuccess(now), 500, "k-1", now);

    RefundOrder processing = move(pending, RefundStatus.PROCESSING, now);
    RefundOrder success = move(processing, RefundStatus.SUCCESS, now);

    assertThat(processing.version()).isEqualTo(1);
    assertThat(processing.leaseOwner()).isEqualTo("creator");
    assertThat(success.version()).isEqualTo(2);
    assertThat(success.leaseOwner()).isNull();
    assertThat(success.retryCount()).isZero();
    assertThat(path(pending.id()))
        .containsExactly("null->PENDING@0", "PENDING->PROCESSING@1", "PROCESSING->SUCCESS@2");
    assertThat(
            count(
                "SELECT count(*) FROM refund_order_history WHERE refund_id = ?"
                    + " AND trigger_source = 'MANUAL' AND request_id = 'req-1'"
                    + " AND result_class = 'TEST' AND elapsed_ms = 3",
                pending.id()))
        .isEqualTo(2);
  }

  @Test
  void aStaleRowMovesNothingAndWritesNoHistory() {
    Instant now = now();
    RefundOrder pending = created(bizSuccess(now), 500, "k-1", now);
    move(pending, RefundStatus.PROCESSING, now);

    assertThat(refunds().transition(write(pending, RefundStatus.PROCESSING, now))).isEmpty();
    assertThat(refunds().transition(write(pending, RefundStatus.CLOSED, now))).isEmpty();
    assertThat(path(pending.id())).hasSize(2);
  }

  @Test
  void anIllegalEdgeIsRefusedInCodeBeforeAnySql() {
    Instant now = now();
    RefundOrder pending = created(bizSuccess(now), 500, "k-1", now);

    assertThatThrownBy(() -> refunds().transition(write(pending, RefundStatus.SUCCESS, now)))
        .isInstanceOf(IllegalStateException.class);
    assertThat(path(pending.id())).hasSize(1);
  }

  @Test
  void aRescheduleIsACasOnStatusVersionAndLeaseOwner() {
    Instant now = now();
    RefundOrder processing =
        move(created(bizSuccess(now), 500, "k-1", now), RefundStatus.PROCESSING, now);
    Instant later = now.plusSeconds(5);
    RefundOrder stolen =
        new RefundOrder(
            processing.id(),
            processing.flowId(),
            processing.merchantId(),
            processing.seq(),
            processing.tradeOrderNo(),
            processing.refundNo(),
            processing.amount(),
            processing.currency(),
            processing.reason(),
            processing.requestedBy(),
            processing.status(),
            processing.version(),
            processing.nextRetryTime(),
            processing.retryCount(),
            processing.lastErrorCode(),
            "someone-else",
            processing.createdAt(),
            processing.updatedAt());

    boolean byOther =
        refunds()
            .reschedule(new RescheduleWrite(stolen, 1, later, "TIMEOUT", now, stolen.leaseOwner()));
    boolean byHolder =
        refunds()
            .reschedule(
                new RescheduleWrite(processing, 1, later, "TIMEOUT", now, processing.leaseOwner()));

    assertThat(byOther).isFalse();
    assertThat(byHolder).isTrue();
    RefundOrder after = refunds().find(processing.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(after.version()).isEqualTo(processing.version());
    assertThat(after.retryCount()).isEqualTo(1);
    assertThat(after.nextRetryTime()).isEqualTo(later);
    assertThat(after.lastErrorCode()).isEqualTo("TIMEOUT");
    assertThat(after.leaseOwner()).isNull();
    assertThat(
            refunds()
                .reschedule(
                    new RescheduleWrite(processing, 2, later, "X", now, processing.leaseOwner())))
        .as("the holder's lease is gone once released")
        .isFalse();
  }

  // ---- leases ------------------------------------------------------------------------------

  @Test
  void aHeldRefundIsClaimedOnlyAfterItsLeaseExpiresAndATerminalOneNever() {
    Instant now = now();
    RefundOrder pending = created(bizSuccess(now), 500, "k-1", now);

    assertThat(refunds().claim(pending.id(), lease("w1", now), now)).isFalse();
    assertThat(refunds().claim(pending.id(), lease("w1", now), now.plus(LEASE))).isTrue();
    assertThat(refunds().find(pending.id()).orElseThrow().leaseOwner()).isEqualTo("w1");

    RefundOrder done =
        move(
            move(refunds().find(pending.id()).orElseThrow(), RefundStatus.PROCESSING, now),
            RefundStatus.SUCCESS,
            now);
    assertThat(refunds().claim(done.id(), lease("w2", now), now.plus(LEASE.multipliedBy(9))))
        .isFalse();
  }

  @Test
  void theScanClaimsDueNonTerminalRefundsPageByPageAndHoldsThem() {
    Instant now = now();
    PayFlow flow = bizSuccess(now);
    RefundOrder a = created(flow, 100, "k-1", now);
    RefundOrder b = move(created(flow, 100, "k-2", now), RefundStatus.PROCESSING, now);
    RefundOrder c =
        move(
            move(created(flow, 100, "k-3", now), RefundStatus.PROCESSING, now),
            RefundStatus.ABNORMAL,
            now);
    RefundOrder done =
        move(
            move(created(flow, 100, "k-4", now), RefundStatus.PROCESSING, now),
            RefundStatus.SUCCESS,
            now);
    Instant due = now.plus(LEASE).plusSeconds(1);

    List<Long> page1 = refunds().claimDue(0, 2, lease("scan-1", due), due);
    List<Long> page2 = refunds().claimDue(page1.get(1), 2, lease("scan-1", due), due);
    List<Long> again = refunds().claimDue(0, 10, lease("scan-2", due), due);

    assertThat(page1).containsExactly(a.id(), b.id());
    assertThat(page2).containsExactly(c.id());
    assertThat(again).as("held until the scan's lease expires").isEmpty();
    assertThat(refunds().find(done.id()).orElseThrow().leaseOwner()).isNull();
    assertThat(refunds().find(c.id()).orElseThrow().leaseOwner()).isEqualTo("scan-1");
    Instant expired = due.plus(LEASE);
    assertThat(refunds().claimDue(0, 10, lease("scan-3", expired), expired))
        .containsExactly(a.id(), b.id(), c.id());
  }
}
