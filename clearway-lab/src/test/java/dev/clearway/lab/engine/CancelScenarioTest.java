package dev.clearway.lab.engine;

import static dev.clearway.service.testkit.EngineHarness.T0;
import static dev.clearway.service.testkit.EngineHarness.goal;
import static dev.clearway.service.testkit.EngineHarness.refundNo;
import static dev.clearway.service.testkit.EngineHarness.trade;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.CancelService;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.ScriptedWallet.Pay;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Cancel and timeout close through the one state machine: a goal cancelled before any payment call
 * closes; a cancel during PAYING closes the order at the wallet, or refunds a charge that landed
 * anyway (never BIZ_SUCCESS); a confirmed charge refuses the cancel; an order left unpaid past the
 * unpaid timeout is closed at the wallet.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class CancelScenarioTest {
  private static final Instant DEADLINE = T0.plus(Duration.ofHours(1));

  private EngineHarness h;
  private final List<Long> woken = new ArrayList<>();
  private CancelService cancels;

  @BeforeEach
  void setUp() {
    h = EngineHarness.fresh(EngineConfig.compressed().withUnpaidTimeout(Duration.ofMinutes(10)));
    cancels = new CancelService(h.store, woken::add, h.clock);
  }

  @Test
  void cancelBeforeAnyPaymentCallClosesTheFlow() {
    // A creator that inserted the row and has not called the wallet yet.
    PayFlow created =
        h.store
            .createAttempt(
                EngineHarness.payment(goal("c1"), DEADLINE),
                new Lease("creator", T0.plusSeconds(30)),
                T0)
            .flow();

    CancelService.Outcome outcome = cancels.cancel(created.id()).orElseThrow();

    assertThat(outcome.accepted()).isTrue();
    assertThat(outcome.flow().status()).isEqualTo(FlowStatus.CLOSED);
    assertThat(h.path(created.id())).containsExactly("WAIT_PAY", "CLOSED");
    // The creator's late step finds the flow closed and calls nothing.
    h.advance(created.id(), TriggerSource.SYNC);
    assertThat(h.wallet.calls()).isEmpty();
  }

  @Test
  void cancelWhileTheChargeIsUnknownAndTheChargeLandsEndsRefundedNeverBizSuccess() {
    String bizKey = "c2";
    h.wallet.scriptPay(trade(1), Pay.RESPONSE_LOST);
    PayFlow paying = h.start(goal(bizKey), DEADLINE).flow();
    assertThat(paying.status()).isEqualTo(FlowStatus.PAYING);

    CancelService.Outcome outcome = cancels.cancel(paying.id()).orElseThrow();
    assertThat(outcome.accepted()).isTrue();
    assertThat(outcome.flow().isCancelRequested()).isTrue();
    assertThat(woken).containsExactly(paying.id());

    h.clock.advance(Duration.ofSeconds(5));
    h.advance(paying.id(), TriggerSource.WAKEUP);

    PayFlow end = h.flow(paying.id());
    assertThat(end.status()).isEqualTo(FlowStatus.REFUNDED);
    assertThat(h.wallet.charges(trade(1))).isEqualTo(1);
    assertThat(h.wallet.refunds(refundNo(1))).isEqualTo(1);
    assertThat(h.business.grants()).isEmpty();
    assertThat(h.history(paying.id()).get(h.history(paying.id()).size() - 2).errorCode())
        .isEqualTo("CANCELLED");
  }

  @Test
  void cancelWhileTheWalletHasNoRecordClosesTheOrderAndALatePayIsRejected() {
    h.wallet.scriptPay(trade(1), Pay.TIMEOUT_BEFORE);
    PayFlow paying = h.start(goal("c3"), DEADLINE).flow();
    assertThat(paying.status()).isEqualTo(FlowStatus.PAYING);

    cancels.cancel(paying.id());
    h.clock.advance(Duration.ofSeconds(5));
    h.advance(paying.id(), TriggerSource.WAKEUP);

    PayFlow end = h.flow(paying.id());
    assertThat(end.status()).isEqualTo(FlowStatus.PAY_FAIL);
    assertThat(end.lastErrorCode()).isEqualTo("CANCELLED");
    assertThat(h.wallet.calls("CLOSE")).hasSize(1);
    h.wallet.deliverLatePay(trade(1));
    assertThat(h.wallet.charges(trade(1))).isZero();
  }

  @Test
  void aConfirmedChargeRefusesTheCancel() {
    PayFlow done = h.start(goal("c4"), DEADLINE).flow();
    assertThat(done.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);

    CancelService.Outcome outcome = cancels.cancel(done.id()).orElseThrow();

    assertThat(outcome.accepted()).isFalse();
    assertThat(h.flow(done.id()).isCancelRequested()).isFalse();
    assertThat(h.wallet.refunds(refundNo(1))).isZero();
  }

  @Test
  void theDatabaseRefusesACancelRecordedAfterTheChargeIsKnownOrWithdrawn() throws Exception {
    PayFlow done = h.start(goal("c5"), DEADLINE).flow();
    assertThatThrownBy(
            () -> exec("UPDATE pay_flow SET cancel_requested_at = now() WHERE id = ?", done.id()))
        .isInstanceOf(SQLException.class);

    h.wallet.scriptPay(trade(2), Pay.RESPONSE_LOST);
    PayFlow paying = h.start(goal("c6"), DEADLINE).flow();
    cancels.cancel(paying.id());
    assertThatThrownBy(
            () -> exec("UPDATE pay_flow SET cancel_requested_at = NULL WHERE id = ?", paying.id()))
        .isInstanceOf(SQLException.class);
  }

  @Test
  void anOrderLeftUnpaidPastTheTimeoutIsClosedAtTheWallet() {
    h.wallet.processingFor(Duration.ofHours(2));
    h.wallet.scriptPay(trade(1), Pay.PROCESSING);
    PayFlow paying = h.start(goal("c7"), DEADLINE.plus(Duration.ofHours(5))).flow();
    assertThat(paying.status()).isEqualTo(FlowStatus.PAYING);

    h.clock.advance(Duration.ofMinutes(5));
    h.advance(paying.id(), TriggerSource.WAKEUP);
    assertThat(h.flow(paying.id()).status()).isEqualTo(FlowStatus.PAYING);

    h.clock.advance(Duration.ofMinutes(6));
    h.advance(paying.id(), TriggerSource.WAKEUP);

    PayFlow end = h.flow(paying.id());
    assertThat(end.status()).isEqualTo(FlowStatus.PAY_FAIL);
    assertThat(end.lastErrorCode()).isEqualTo("UNPAID_TIMEOUT");
    h.clock.advance(Duration.ofHours(3));
    h.wallet.settleAll();
    assertThat(h.wallet.charges(trade(1))).isZero();
  }

  private void exec(String sql, long id) throws SQLException {
    try (Connection c = h.dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setLong(1, id);
      ps.executeUpdate();
    }
  }
}
