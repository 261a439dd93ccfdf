package dev.clearway.store.reconciliation;

import static dev.clearway.store.reconciliation.ReconFixture.T0;
import static dev.clearway.store.reconciliation.ReconFixture.WALLET;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JdbcLocalFactsTest {
  private static final Instant DAY_END = T0.plus(Duration.ofDays(1));

  private final ReconFixture fx = new ReconFixture();
  private final JdbcLocalFacts facts = new JdbcLocalFacts(fx.ds, fx.dialect, WALLET);

  @BeforeEach
  void reset() {
    fx.reset();
    fx.account(1, "acct_1");
    fx.account(2, "acct_2");
  }

  @Test
  void aChannelFlowIsSeenWithItsChargedAttemptAndTheAttemptsAccount() {
    fx.flow("T1", "PAYED", T0.plusSeconds(5));
    fx.attempt("T1", 1, 2, "k-first", "FAILED", T0.plusSeconds(1));
    fx.attempt("T1", 2, 1, "k-second", "SUCCEEDED", T0.plusSeconds(4));

    LocalFact byTrade = facts.byTradeOrderNo("T1").orElseThrow();
    assertThat(byTrade.attemptKey()).isEqualTo("k-second");
    assertThat(byTrade.attempt().status()).isEqualTo(AttemptStatus.SUCCEEDED);
    assertThat(byTrade.channelAccount()).isEqualTo("acct_1");
    assertThat(byTrade.flowStatus()).isEqualTo(FlowStatus.PAYED);
    assertThat(byTrade.flowVersion()).isEqualTo(3);
    assertThat(byTrade.amountMinor()).isEqualTo(500);
    assertThat(byTrade.currency()).isEqualTo("EUR");
    assertThat(byTrade.flowRefundOrderNo()).isEqualTo("r_T1");
    assertThat(byTrade.goal().bizKey()).isEqualTo("goal-T1");
    assertThat(byTrade.refund()).isNull();

    LocalFact byFirstKey = facts.byAttemptKey("k-first").orElseThrow();
    assertThat(byFirstKey.tradeOrderNo()).isEqualTo("T1");
    assertThat(byFirstKey.attempt().status()).isEqualTo(AttemptStatus.FAILED);
    assertThat(byFirstKey.channelAccount()).isEqualTo("acct_2");
    assertThat(facts.byAttemptKey("k-none")).isEmpty();
    assertThat(facts.byTradeOrderNo("T-none")).isEmpty();
  }

  @Test
  void aPlainWalletFlowHasNoAttemptAndBelongsToTheWalletAccount() {
    fx.flow("W1", "BIZ_SUCCESS", T0.plusSeconds(9));

    LocalFact fact = facts.byTradeOrderNo("W1").orElseThrow();
    assertThat(fact.attempt()).isNull();
    assertThat(fact.channelAccount()).isEqualTo(WALLET);
    assertThat(fact.compensation()).isEqualTo(CompensationState.NONE);
    assertThat(fact.locallyCharged()).isTrue();
  }

  @Test
  void refundsAreFoundByTheirOwnNumberTheFlowsNumberAndThePspsNumber() {
    long w1 = fx.flow("W1", "BIZ_SUCCESS", T0);
    long refundId = fx.refundOrder(w1, "W1", 1, "AFTER_SALE", "SUCCESS", 200, T0.plusSeconds(30));
    fx.flow("T1", "REFUNDED", T0.plusSeconds(40));
    long attempt = fx.attempt("T1", 1, 1, "k1", "SUCCEEDED", T0);
    fx.update(
        "INSERT INTO channel_refund (refund_order_no, attempt_id, provider_refund_no, generation,"
            + " amount, created_at, updated_at) VALUES ('r_T1', ?, 'r_T1-2', 2, 500, ?, ?)",
        attempt,
        ReconFixture.ts(T0),
        ReconFixture.ts(T0));

    LocalFact order = facts.byRefundOrderNo("a_W1_1").orElseThrow();
    assertThat(order.refund().id()).isEqualTo(refundId);
    assertThat(order.refund().status()).isEqualTo(RefundStatus.SUCCESS);
    assertThat(order.refund().amountMinor()).isEqualTo(200);
    assertThat(order.refundOrderNo()).isEqualTo("a_W1_1");
    assertThat(order.locallyRefunded()).isTrue();

    LocalFact flowRefund = facts.byRefundOrderNo("r_T1").orElseThrow();
    assertThat(flowRefund.refund()).isNull();
    assertThat(flowRefund.refundOrderNo()).isEqualTo("r_T1");
    assertThat(flowRefund.locallyRefunded()).isTrue();
    assertThat(facts.byRefundOrderNo("r_T1-2").orElseThrow().tradeOrderNo()).isEqualTo("T1");
    assertThat(facts.byRefundOrderNo("r_T9")).isEmpty();
    assertThat(facts.byRefundOrderNo("a_W1_2")).isEmpty();
  }

  @Test
  void compensationStateComesFromTheAttemptsCompensationAndLateChargeRefunds() {
    long c1 = fx.flow("C1", "CLOSED", T0);
    fx.refundOrder(c1, "C1", 1, "LATE_CHARGE", "PROCESSING", 500, T0);
    long c2 = fx.flow("C2", "CLOSED", T0);
    fx.refundOrder(c2, "C2", 1, "LATE_CHARGE", "SUCCESS", 500, T0);
    long c3 = fx.flow("C3", "PAY_FAIL", T0);
    fx.refundOrder(c3, "C3", 1, "LATE_CHARGE", "FAIL", 500, T0);
    fx.flow("C4", "PAY_FAIL", T0);
    long failed = fx.attempt("C4", 1, 1, "k-c4", "FAILED", T0);
    fx.compensation(failed, "C4", "comp-C4", "PENDING", T0.plusSeconds(3));
    fx.flow("C5", "PAY_FAIL", T0);
    long refunded = fx.attempt("C5", 1, 1, "k-c5", "FAILED", T0);
    fx.compensation(refunded, "C5", "comp-C5", "REFUNDED", T0);

    assertThat(compensation("C1")).isEqualTo(CompensationState.OPEN);
    assertThat(compensation("C2")).isEqualTo(CompensationState.SETTLED);
    assertThat(compensation("C3")).isEqualTo(CompensationState.NONE);
    assertThat(facts.byAttemptKey("k-c4").orElseThrow().compensation())
        .isEqualTo(CompensationState.OPEN);
    assertThat(compensation("C5")).isEqualTo(CompensationState.SETTLED);

    LocalFact byCompensation = facts.byRefundOrderNo("comp-C4").orElseThrow();
    assertThat(byCompensation.tradeOrderNo()).isEqualTo("C4");
    assertThat(byCompensation.refund().id()).isEqualTo(-failed);
    assertThat(byCompensation.refund().status()).isEqualTo(RefundStatus.PROCESSING);
    assertThat(byCompensation.refund().updatedAt()).isEqualTo(T0.plusSeconds(3));
  }

  private CompensationState compensation(String trade) {
    return facts.byTradeOrderNo(trade).orElseThrow().compensation();
  }

  @Test
  void movementsOfAChannelAccountAreItsChargesAndRefundsInsideTheWindow() {
    long t1 = fx.flow("T1", "BIZ_SUCCESS", T0.plusSeconds(60));
    fx.attempt("T1", 1, 1, "k1", "SUCCEEDED", T0);
    fx.payedAt(t1, "T1", T0.plusSeconds(1));
    fx.refundOrder(t1, "T1", 1, "AFTER_SALE", "SUCCESS", 100, DAY_END.minusMillis(1));
    fx.refundOrder(t1, "T1", 2, "AFTER_SALE", "PROCESSING", 100, T0.plusSeconds(90));
    fx.flow("T2", "PAYED", T0);
    fx.attempt("T2", 1, 1, "k2", "SUCCEEDED", DAY_END);
    fx.flow("T3", "PAYED", T0);
    fx.attempt("T3", 1, 1, "k3", "SUCCEEDED", T0.minusMillis(1));
    fx.flow("T4", "PAYING", T0);
    fx.attempt("T4", 1, 1, "k4", "UNKNOWN", T0.plusSeconds(5));
    fx.flow("T5", "PAYED", T0);
    fx.attempt("T5", 1, 2, "k5", "SUCCEEDED", T0.plusSeconds(5));

    List<String> seen = movements("acct_1");

    assertThat(seen).containsExactlyInAnyOrder("T1 charge", "T1 refund a_T1_1");
    assertThat(movements("acct_2")).containsExactly("T5 charge");
    assertThat(movements(WALLET)).isEmpty();
  }

  @Test
  void movementsOfTheWalletAreFlowsPaidWithoutAttemptsByTheirPayedTime() {
    long w1 = fx.flow("W1", "REFUNDED", T0.plus(Duration.ofDays(2)));
    fx.payedAt(w1, "W1", T0);
    long w2 = fx.flow("W2", "PAYED", DAY_END);
    fx.payedAt(w2, "W2", DAY_END);
    long w3 = fx.flow("W3", "BIZ_SUCCESS", T0.plusSeconds(3));
    fx.payedAt(w3, "W3", T0.plusSeconds(2));
    fx.refundOrder(w3, "W3", 1, "AFTER_SALE", "SUCCESS", 50, T0.plusSeconds(10));
    fx.flow("W4", "PAY_FAIL", T0.plusSeconds(3));

    assertThat(movements(WALLET))
        .containsExactlyInAnyOrder("W1 charge", "W3 charge", "W3 refund a_W3_1");
    LocalFact w1Fact;
    try (Stream<LocalFact> all = facts.movementsIn(WALLET, T0, DAY_END)) {
      w1Fact = all.filter(f -> f.flowId() == w1).findFirst().orElseThrow();
    }
    assertThat(w1Fact.locallyRefunded()).isTrue();
    assertThat(w1Fact.refundOrderNo()).isEqualTo("r_W1");
    assertThat(movements("acct_1")).isEmpty();
  }

  @Test
  void movementsStreamFromACursorAndGiveTheirConnectionBackWhenClosed() {
    fx.exec(
        "INSERT INTO pay_flow (user_id, scene, biz_key, attempt_no, trade_order_no,"
            + " refund_order_no, status, version, amount, currency, biz_deadline_time,"
            + " next_retry_time, created_at, updated_at)"
            + " SELECT 1, 'bulk', 'b' || g, 1, 'B' || g, 'r_B' || g, 'PAYED', 2, 100, 'EUR',"
            + " now(), now(), now(), now() FROM generate_series(1, 2500) g");
    fx.exec(
        "INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no, from_status,"
            + " to_status, version, trigger_source, created_at)"
            + " SELECT id, biz_key, 1, trade_order_no, 'PAYING', 'PAYED', 2, 'SCANNER',"
            + " '2026-12-01T06:00:00Z' FROM pay_flow WHERE scene = 'bulk'");

    try (Stream<LocalFact> all = facts.movementsIn(WALLET, T0, DAY_END)) {
      assertThat(all.count()).isEqualTo(2500);
    }
    // Each partly read stream holds a connection until closed: more than the pool's 16 in turn.
    for (int i = 0; i < 40; i++) {
      try (Stream<LocalFact> some = facts.movementsIn(WALLET, T0, DAY_END)) {
        assertThat(some.limit(3).count()).isEqualTo(3);
      }
    }
    assertThat(facts.byTradeOrderNo("B2500")).isPresent();
  }

  private List<String> movements(String account) {
    try (Stream<LocalFact> s = facts.movementsIn(account, T0, DAY_END)) {
      return s.map(
              f ->
                  f.tradeOrderNo()
                      + (f.refund() == null ? " charge" : " refund " + f.refund().refundOrderNo()))
          .toList();
    }
  }
}
