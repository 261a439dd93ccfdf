package dev.clearway.service.refund;

import static dev.clearway.service.refund.RefundTestEngine.CONFIG;
import static dev.clearway.service.refund.RefundTestEngine.numberOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.engine.RefundAdvanceResult;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.RecordingWakeups.Wakeup;
import dev.clearway.service.testkit.ScriptedWallet;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The refund advancer and scanner against real PostgreSQL and a scripted, idempotent wallet: every
 * path ends on a legal state, and the wallet executes each refund number at most once.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class RefundEngineTest {
  private RefundTestEngine e;

  @BeforeEach
  void fresh() {
    e = RefundTestEngine.fresh();
  }

  private long ledgerRefunds(String refundNo) {
    return e.h.wallet.refunds(refundNo);
  }

  private long sentAsRefund(String refundNo) {
    return e.h.wallet.calls("REFUND").stream().filter(c -> c.orderNo().equals(refundNo)).count();
  }

  private long refundedFor(PayFlow flow) {
    return e.h.wallet.ledger().stream()
        .filter(l -> l.kind() == LedgerEntry.Kind.REFUND)
        .filter(l -> l.tradeOrderNo().equals(flow.tradeOrderNo()))
        .mapToLong(LedgerEntry::amount)
        .sum();
  }

  @Test
  void aRefundIsSentAndSettlesInTheCreatingRequest() {
    PayFlow flow = e.paidFlow();

    RefundOrder r = e.request(flow, 500, "k-1");

    assertThat(r.status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(r.leaseOwner()).isNull();
    assertThat(r.refundNo()).isEqualTo(numberOf(flow, 1)).isNotEqualTo(flow.refundOrderNo());
    assertThat(e.path(r.id())).containsExactly("PENDING", "PROCESSING", "SUCCESS");
    assertThat(ledgerRefunds(r.refundNo())).isEqualTo(1);
    assertThat(refundedFor(flow)).isEqualTo(500);
    assertThat(e.h.wallet.refunds(flow.refundOrderNo()))
        .as("the compensation refund is untouched")
        .isZero();
  }

  @Test
  void aLostResponseIsQueriedByTheSameNumberAndRefundedOnce() {
    PayFlow flow = e.paidFlow();
    String no = numberOf(flow, 1);
    e.h.wallet.scriptRefund(no, ScriptedWallet.Refund.RESPONSE_LOST);

    RefundOrder r = e.request(flow, 700, "k-1");

    assertThat(r.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(r.retryCount()).isEqualTo(1);
    assertThat(r.lastErrorCode()).isEqualTo("TIMEOUT");
    assertThat(r.leaseOwner()).isNull();
    assertThat(e.wakeups.forFlow(r.id())).containsExactly(r.nextRetryTime());

    e.h.clock.set(r.nextRetryTime());
    RefundAdvanceResult woken = e.wake(r.id());

    assertThat(woken.outcome()).isEqualTo(RefundAdvanceResult.Outcome.TERMINAL);
    assertThat(woken.refund().status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(sentAsRefund(no)).as("found by the query, not sent again").isEqualTo(1);
    assertThat(ledgerRefunds(no)).isEqualTo(1);
    assertThat(refundedFor(flow)).isEqualTo(700);
    assertThat(e.path(r.id())).containsExactly("PENDING", "PROCESSING", "SUCCESS");
  }

  @Test
  void aRetryableFailureSendsTheSameNumberAgain() {
    PayFlow flow = e.paidFlow();
    String no = numberOf(flow, 1);
    e.h.wallet.scriptRefund(no, ScriptedWallet.Refund.FAILED_ONCE);

    RefundOrder r = e.request(flow, 300, "k-1");

    assertThat(r.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(r.lastErrorCode()).isEqualTo("MERCHANT_BALANCE_LOW");
    assertThat(ledgerRefunds(no)).isZero();

    e.h.clock.set(r.nextRetryTime());
    assertThat(e.wake(r.id()).refund().status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(sentAsRefund(no)).isEqualTo(2);
    assertThat(e.h.wallet.calls("REFUND"))
        .extracting(ScriptedWallet.Call::orderNo)
        .containsOnly(no);
    assertThat(ledgerRefunds(no)).isEqualTo(1);
  }

  @Test
  void aSpentBudgetMakesTheRefundAbnormalAndItIsStillQueriedSlowlyUntilItSettles() {
    PayFlow flow = e.paidFlow();
    e.h.wallet.setDown(true);

    RefundOrder r = e.request(flow, 400, "k-1");
    assertThat(r.status()).isEqualTo(RefundStatus.PROCESSING);
    for (int i = 0; i < CONFIG.retryBudget() && r.status() == RefundStatus.PROCESSING; i++) {
      e.h.clock.set(r.nextRetryTime());
      assertThat(e.scan()).isEqualTo(1);
      r = e.refund(r.id());
    }

    assertThat(r.status()).isEqualTo(RefundStatus.ABNORMAL);
    assertThat(r.lastErrorCode()).startsWith("RETRY_BUDGET_SPENT:");
    assertThat(r.leaseOwner()).isNull();
    Instant slow = e.h.clock.instant().plus(CONFIG.escalatedInterval());
    assertThat(r.nextRetryTime()).isEqualTo(slow);
    assertThat(e.wakeups.all()).extracting(Wakeup::at).contains(slow);
    assertThat(e.events.count("abnormal")).isEqualTo(1);

    // not dropped: not due before the escalated interval, found and rescheduled after it
    e.h.clock.advance(CONFIG.escalatedInterval().minusMillis(1));
    assertThat(e.scan()).isZero();
    e.h.clock.set(slow);
    assertThat(e.scan()).isEqualTo(1);
    RefundOrder still = e.refund(r.id());
    assertThat(still.status()).isEqualTo(RefundStatus.ABNORMAL);
    assertThat(still.nextRetryTime()).isEqualTo(slow.plus(CONFIG.escalatedInterval()));
    assertThat(still.retryCount()).isEqualTo(r.retryCount() + 1);

    // the wallet recovers: the next slow query finds no record, sends the same number, settles
    e.h.wallet.setDown(false);
    e.h.clock.set(still.nextRetryTime());
    assertThat(e.scan()).isEqualTo(1);

    RefundOrder done = e.refund(r.id());
    assertThat(done.status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(e.path(r.id())).containsExactly("PENDING", "PROCESSING", "ABNORMAL", "SUCCESS");
    assertThat(ledgerRefunds(r.refundNo())).isEqualTo(1);
  }

  @Test
  void aWorkerThatDiesAfterTheWalletActedIsTakenOverByTheScannerAfterItsLease() {
    PayFlow flow = e.paidFlow();
    String no = numberOf(flow, 1);
    e.h.wallet.scriptRefund(no, ScriptedWallet.Refund.CRASH_AFTER);

    RefundOrder r = e.request(flow, 250, "k-1");

    assertThat(r.status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(r.leaseOwner()).as("the dead worker's lease").isNotNull();
    assertThat(e.scan()).as("held until the lease expires").isZero();

    e.h.clock.advance(CONFIG.lease());
    assertThat(e.scan()).isEqualTo(1);

    assertThat(e.refund(r.id()).status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(sentAsRefund(no)).isEqualTo(1);
    assertThat(ledgerRefunds(no)).isEqualTo(1);
  }

  @Test
  void aPendingRefundWhoseCreatorDiedIsSentByTheScanner() {
    PayFlow flow = e.paidFlow();
    Instant now = e.h.clock.instant();
    Lease creator = e.leases.next();
    CreateOutcome created =
        e.refunds.create(
            new NewRefund(flow.id(), 999, "damaged", GoalKey.DEFAULT_MERCHANT, "k-1"),
            creator,
            now);
    RefundOrder r = ((CreateOutcome.Created) created).refund();

    assertThat(e.scan()).isZero();
    e.h.clock.set(creator.until());
    assertThat(e.scan()).isEqualTo(1);

    assertThat(e.refund(r.id()).status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(ledgerRefunds(r.refundNo())).isEqualTo(1);
  }

  @Test
  void aPendingRefundOfAFlowThatIsNotBizSuccessIsClosedWithoutAWalletCall() throws SQLException {
    // A row written outside the API, on a flow that never reached BIZ_SUCCESS.
    PayFlow unpaid =
        e.h
            .store
            .createAttempt(
                new NewPayment(
                    EngineHarness.goal("never-paid"),
                    1_999,
                    "CNY",
                    e.h.clock.instant().plus(Duration.ofHours(1))),
                e.leases.next(),
                e.h.clock.instant())
            .flow();
    long id;
    try (Connection c = e.h.dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                """
                INSERT INTO refund_order (flow_id, seq, trade_order_no, refund_no, amount,
                       currency, reason, requested_by, idem_key, request_hash, status,
                       next_retry_time, created_at, updated_at)
                VALUES (?, 1, ?, ?, 100, 'CNY', 'script', 'ops', 'planted', repeat('0', 64),
                        'PENDING', ?, ?, ?)
                RETURNING id
                """)) {
      Object at = e.h.clock.instant().atOffset(ZoneOffset.UTC);
      ps.setLong(1, unpaid.id());
      ps.setString(2, unpaid.tradeOrderNo());
      ps.setString(3, "a_" + unpaid.tradeOrderNo() + "_1");
      ps.setObject(4, at);
      ps.setObject(5, at);
      ps.setObject(6, at);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        id = rs.getLong(1);
      }
    }

    assertThat(e.scan()).isEqualTo(1);

    RefundOrder closed = e.refund(id);
    assertThat(closed.status()).isEqualTo(RefundStatus.CLOSED);
    assertThat(closed.lastErrorCode()).isEqualTo("FLOW_NOT_REFUNDABLE");
    assertThat(e.h.wallet.calls("REFUND")).isEmpty();
  }

  @Test
  void aDefiniteRefusalFailsTheRefundAndReleasesItsAmount() {
    PayFlow flow = e.paidFlow();
    WalletGateway refusing =
        new WalletGateway() {
          @Override
          public WalletResult pay(ChargeRequest request) {
            return e.h.wallet.pay(request);
          }

          @Override
          public WalletResult queryPayment(String tradeOrderNo) {
            return e.h.wallet.queryPayment(tradeOrderNo);
          }

          @Override
          public WalletResult closePayment(String tradeOrderNo) {
            return e.h.wallet.closePayment(tradeOrderNo);
          }

          @Override
          public WalletResult refund(RefundRequest request) {
            return WalletResult.failed("ACCOUNT_FROZEN", "w-1", false);
          }

          @Override
          public WalletResult queryRefund(String refundOrderNo) {
            return e.h.wallet.queryRefund(refundOrderNo);
          }
        };
    RefundTestEngine refused = e.withWallet(refusing);

    RefundOrder failed = refused.request(flow, flow.amount(), "k-1");
    RefundOrder retried = e.request(flow, flow.amount(), "k-2");

    assertThat(failed.status()).isEqualTo(RefundStatus.FAIL);
    assertThat(failed.lastErrorCode()).isEqualTo("ACCOUNT_FROZEN");
    assertThat(retried.status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(retried.seq()).isEqualTo(2);
    assertThat(refundedFor(flow)).isEqualTo(flow.amount());
  }

  @Test
  void twoWorkersOnOneRefundAfterALeaseTakeoverMoveItOnceAndRefundOnce() {
    PayFlow flow = e.paidFlow();
    String no = numberOf(flow, 1);
    // While the first worker waits for the wallet's answer, its lease expires and the scanner
    // hands the refund to a second worker, which queries and settles it first.
    e.h.wallet.duringNextCall(
        orderNo -> {
          e.h.clock.advance(CONFIG.lease());
          assertThat(e.scan()).isEqualTo(1);
        });

    RefundOrder r = e.request(flow, 600, "k-1");

    assertThat(r.status()).isEqualTo(RefundStatus.SUCCESS);
    // The first worker's write is refused by the lease fence and counted as a lost lease.
    assertThat(e.events.count("leaseLost:refund_order")).isEqualTo(1);
    assertThat(e.events.count("cas:IDEMPOTENT")).isZero();
    assertThat(e.events.count("transition:PROCESSING->SUCCESS")).isEqualTo(1);
    assertThat(e.path(r.id())).containsExactly("PENDING", "PROCESSING", "SUCCESS");
    assertThat(sentAsRefund(no)).isEqualTo(1);
    assertThat(ledgerRefunds(no)).isEqualTo(1);
  }

  @Test
  void aWorkerWhoseLeaseWasTakenOverCannotSettleTheRefundTheNewHolderWorksOn() {
    PayFlow flow = e.paidFlow();
    String no = numberOf(flow, 1);
    List<dev.clearway.core.flow.engine.Trigger> takeover = new java.util.ArrayList<>();
    // While the first worker waits for the wallet's answer, its lease expires and another worker
    // claims the refund; that worker has not written anything yet.
    e.h.wallet.duringNextCall(
        orderNo -> {
          e.h.clock.advance(CONFIG.lease().plusMillis(1));
          e.scanner.runRound((id, trigger) -> takeover.add(trigger));
        });

    RefundOrder stale = e.request(flow, 600, "k-1");

    assertThat(takeover).hasSize(1);
    assertThat(stale.status())
        .as("the stale worker's SUCCESS was refused")
        .isEqualTo(RefundStatus.PROCESSING);
    assertThat(stale.leaseOwner()).isEqualTo(takeover.get(0).lease().token());
    assertThat(e.events.count("leaseLost:refund_order")).isEqualTo(1);
    assertThat(e.path(stale.id())).containsExactly("PENDING", "PROCESSING");

    RefundAdvanceResult holder = e.advancer.advance(stale.id(), takeover.get(0));

    assertThat(holder.refund().status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(e.path(stale.id())).containsExactly("PENDING", "PROCESSING", "SUCCESS");
    assertThat(sentAsRefund(no)).isEqualTo(1);
    assertThat(ledgerRefunds(no)).isEqualTo(1);
  }

  @Test
  void partialRefundsAddUpToThePaymentAndNoMore() {
    PayFlow flow = e.paidFlow();

    List<RefundOrder> done =
        List.of(
            e.request(flow, 500, "p-1"), e.request(flow, 500, "p-2"), e.request(flow, 999, "p-3"));
    CreateOutcome more =
        e.service.request(new NewRefund(flow.id(), 1, "damaged", GoalKey.DEFAULT_MERCHANT, "p-4"));

    assertThat(done).extracting(RefundOrder::status).containsOnly(RefundStatus.SUCCESS);
    assertThat(done).extracting(RefundOrder::seq).containsExactly(1, 2, 3);
    assertThat(more).isEqualTo(new CreateOutcome.ExceedsPayment(flow.amount(), flow.amount()));
    assertThat(refundedFor(flow)).isEqualTo(flow.amount());
    assertThat(e.h.wallet.charges(flow.tradeOrderNo())).isEqualTo(1);
  }
}
