package dev.clearway.app.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.app.engine.testkit.EngineHarness;
import dev.clearway.app.engine.testkit.ScriptedWallet.Pay;
import dev.clearway.core.domain.FlowStatus;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.port.FlowStore.HistoryNote;
import dev.clearway.core.port.FlowStore.TransitionWrite;
import dev.clearway.core.port.WalletGateway.ChargeRequest;
import dev.clearway.core.refund.LateChargeService;
import dev.clearway.core.refund.RefundStatus;
import dev.clearway.core.refund.RefundStore.CreateOutcome;
import dev.clearway.sim.LedgerEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A charge that lands on an order already ended without payment is refunded through a LATE_CHARGE
 * refund order, once, and only when the wallet confirms the charge; the flow is never revived.
 */
class LateChargeTest {
  private RefundTestEngine e;
  private LateChargeService lateCharges;

  @BeforeEach
  void setUp() {
    e = RefundTestEngine.fresh();
    lateCharges = new LateChargeService(e.h.store, e.h.wallet, e.service);
  }

  /** A flow that ended PAY_FAIL after its order was closed, as the payment engine leaves it. */
  private PayFlow closedUnpaid(String bizKey) {
    PayFlow flow = e.h.start(EngineHarness.goal(bizKey), EngineHarness.T0.plusSeconds(30)).flow();
    assertThat(flow.status()).isEqualTo(FlowStatus.PAYING);
    Instant now = e.h.clock.instant();
    return e.h
        .store
        .transition(
            new TransitionWrite(
                flow,
                FlowStatus.PAY_FAIL,
                "CLOSED_BEFORE_CHARGE",
                now,
                null,
                new HistoryNote(TriggerSource.SCANNER, null, "CLOSE", 0),
                now,
                flow.leaseOwner()))
        .orElseThrow();
  }

  @Test
  void aChargeThatLandsAfterTheOrderEndedIsRefundedOnceAndTheFlowStaysFailed() {
    e.h.wallet.scriptPay(EngineHarness.trade(1), Pay.TIMEOUT_BEFORE);
    PayFlow failed = closedUnpaid("late-1");
    // The wallet's close lost a race: the request that was in transit charges after all.
    e.h.wallet.pay(
        new ChargeRequest(failed.tradeOrderNo(), EngineHarness.USER, failed.amount(), "CNY"));
    assertThat(e.h.wallet.charges(failed.tradeOrderNo())).isEqualTo(1);

    Optional<CreateOutcome> first = lateCharges.check(failed.id());
    Optional<CreateOutcome> again = lateCharges.check(failed.id());

    assertThat(first).get().isInstanceOf(CreateOutcome.Created.class);
    assertThat(again).get().isInstanceOf(CreateOutcome.Replayed.class);
    long refunded =
        e.h.wallet.ledger().stream()
            .filter(x -> x.kind() == LedgerEntry.Kind.REFUND)
            .filter(x -> x.tradeOrderNo().equals(failed.tradeOrderNo()))
            .mapToLong(LedgerEntry::amount)
            .sum();
    assertThat(refunded).isEqualTo(failed.amount());
    var refund = ((CreateOutcome.Created) first.get()).refund();
    assertThat(e.refund(refund.id()).status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(refund.refundNo()).startsWith("a_").isNotEqualTo(failed.refundOrderNo());
    assertThat(e.h.flow(failed.id()).status()).isEqualTo(FlowStatus.PAY_FAIL);
    // The refund's success is told to other systems through the outbox, once.
    assertThat(
            count(
                "SELECT count(*) FROM outbox_event WHERE event_type = 'OrderRefundSucceeded'"
                    + " AND aggregate_id = "
                    + failed.id()))
        .isEqualTo(1);
  }

  private long count(String sql) {
    try (var c = e.h.dataSource.getConnection();
        var st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (java.sql.SQLException ex) {
      throw new IllegalStateException(ex);
    }
  }

  @Test
  void noChargeAtTheWalletMeansNoRefund() {
    e.h.wallet.scriptPay(EngineHarness.trade(1), Pay.TIMEOUT_BEFORE);
    PayFlow failed = closedUnpaid("late-2");

    assertThat(lateCharges.check(failed.id())).isEmpty();
    assertThat(e.h.wallet.calls("REFUND")).isEmpty();
  }

  @Test
  void aFlowThatDidNotEndUnpaidIsLeftAlone() {
    PayFlow paid = e.paidFlow();

    assertThat(lateCharges.check(paid.id())).isEmpty();
    e.h.clock.advance(Duration.ofSeconds(1));
    assertThat(e.h.wallet.calls("REFUND")).isEmpty();
  }
}
