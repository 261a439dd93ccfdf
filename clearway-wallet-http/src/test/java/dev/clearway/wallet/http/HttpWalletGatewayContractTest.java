package dev.clearway.wallet.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.WalletFault;
import dev.clearway.sim.http.SimWalletServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The HTTP wallet gateway against the simulated wallet served over real HTTP on an ephemeral port:
 * the same contract as the in-process wallet, with real timeouts, dropped connections and 5xx
 * pages.
 */
class HttpWalletGatewayContractTest {
  private static final Duration READ_TIMEOUT = Duration.ofMillis(1_000);
  private static final Duration HOLD = Duration.ofMillis(2_000);

  private final FaultPlan plan = new FaultPlan(3, 0.9);
  private final StepClock clock = new StepClock();
  private final SimWallet wallet = new SimWallet(plan, clock);
  private SimWalletServer server;
  private HttpWalletGateway gateway;

  @BeforeEach
  void start() {
    server =
        SimWalletServer.start(
            wallet, plan, SimWalletServer.Options.defaults().withLostResponseHold(HOLD));
    gateway =
        new HttpWalletGateway(HttpWalletConfig.of(server.baseUrl()).withReadTimeout(READ_TIMEOUT));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void payIsIdempotentByTradeOrderNumber() {
    String no = trade(WalletFault.NONE);

    WalletResult first = gateway.pay(charge(no));
    WalletResult second = gateway.pay(charge(no));

    assertThat(first.certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(first.requestId()).startsWith("wreq-");
    assertThat(second.certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(charges(no)).isEqualTo(1);
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
  }

  @Test
  void queryOfAnOrderNeverSentIsNoRecord() {
    WalletResult r = gateway.queryPayment("t_never_sent");

    assertThat(r.certainty()).isEqualTo(Certainty.NO_RECORD);
    assertThat(gateway.queryRefund("r_never_sent").certainty()).isEqualTo(Certainty.NO_RECORD);
  }

  @Test
  void lostResponseIsUnknownThenTheQuerySaysSuccess() {
    String no = trade(WalletFault.PAY_RESPONSE_LOST);

    WalletResult r = gateway.pay(charge(no));

    assertThat(r).isEqualTo(WalletResult.unknown("TIMEOUT"));
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(charges(no)).isEqualTo(1);
  }

  @Test
  void lostResponseWithAPatientClientIsADroppedConnection() {
    HttpWalletGateway patient =
        new HttpWalletGateway(
            HttpWalletConfig.of(server.baseUrl()).withReadTimeout(Duration.ofSeconds(5)));
    String no = trade(WalletFault.PAY_RESPONSE_LOST);

    WalletResult r = patient.pay(charge(no));

    assertThat(r.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(r.errorCode()).isEqualTo("CONNECTION_RESET");
    assertThat(patient.queryPayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
  }

  @Test
  void timeoutBeforeTheChargeIsUnknownAndTheQueryFindsNoRecord() {
    String no = trade(WalletFault.PAY_TIMEOUT_BEFORE);

    assertThat(gateway.pay(charge(no)).certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.NO_RECORD);
    assertThat(gateway.pay(charge(no)).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(charges(no)).isEqualTo(1);
  }

  @Test
  void badGatewayIsUnknownWithExactlyOneCharge() {
    String no = trade(WalletFault.PAY_5XX);

    WalletResult r = gateway.pay(charge(no));

    assertThat(r).isEqualTo(WalletResult.unknown("HTTP_502"));
    assertThat(charges(no)).isEqualTo(1);
    assertThat(gateway.pay(charge(no)).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(charges(no)).isEqualTo(1);
  }

  @Test
  void crashAfterChargeIsUnknownAndTheWalletKeepsServing() {
    String no = trade(WalletFault.PAY_CRASH_AFTER_CHARGE);

    WalletResult r = gateway.pay(charge(no));

    assertThat(r.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(charges(no)).isEqualTo(1);
  }

  @Test
  void queryServiceUnavailableIsUnknownNotFailure() {
    String no = trade(WalletFault.QUERY_5XX);
    gateway.pay(charge(no));

    assertThat(gateway.queryPayment(no)).isEqualTo(WalletResult.unknown("HTTP_503"));
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
  }

  @Test
  void processingThenSuccess() {
    String no = trade(WalletFault.PAY_PROCESSING);

    assertThat(gateway.pay(charge(no)).certainty()).isEqualTo(Certainty.PROCESSING);
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.PROCESSING);
    assertThat(charges(no)).isZero();

    clock.advance(Duration.ofSeconds(2));

    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(charges(no)).isEqualTo(1);
  }

  @Test
  void rejectionIsADefiniteFailure() {
    String no = trade(WalletFault.PAY_REJECTED);

    WalletResult r = gateway.pay(charge(no));

    assertThat(r.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(r.errorCode()).isEqualTo("INSUFFICIENT_BALANCE");
    assertThat(r.retryable()).isFalse();
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(charges(no)).isZero();
  }

  @Test
  void closeThenLatePayIsRejected() {
    String no = trade(WalletFault.NONE);

    assertThat(gateway.closePayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
    WalletResult late = gateway.pay(charge(no));

    assertThat(late.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(late.errorCode()).isEqualTo("ORDER_CLOSED");
    assertThat(gateway.queryPayment(no).errorCode()).isEqualTo("ORDER_CLOSED");
    assertThat(gateway.closePayment(no).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(charges(no)).isZero();
  }

  @Test
  void closeOfAPaidOrderIsAlreadyPaid() {
    String no = trade(WalletFault.NONE);
    gateway.pay(charge(no));

    WalletResult r = gateway.closePayment(no);

    assertThat(r.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(r.errorCode()).isEqualTo("ALREADY_PAID");
  }

  @Test
  void refundIsIdempotentByRefundOrderNumber() {
    String no = trade(WalletFault.NONE);
    gateway.pay(charge(no));
    String refundNo = refund(no, WalletFault.NONE);

    assertThat(gateway.refund(refund(refundNo, no)).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(gateway.refund(refund(refundNo, no)).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(gateway.queryRefund(refundNo).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(refunds(refundNo)).isEqualTo(1);
  }

  @Test
  void refundFailedRetryableThenSuccessWithTheSameNumber() {
    String no = trade(WalletFault.NONE);
    gateway.pay(charge(no));
    String refundNo = refund(no, WalletFault.REFUND_FAILED_ONCE);

    WalletResult first = gateway.refund(refund(refundNo, no));

    assertThat(first.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(first.retryable()).isTrue();
    assertThat(first.errorCode()).isEqualTo("MERCHANT_BALANCE_LOW");
    assertThat(refunds(refundNo)).isZero();
    assertThat(gateway.refund(refund(refundNo, no)).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(refunds(refundNo)).isEqualTo(1);
  }

  @Test
  void refundResponseLostIsUnknownThenTheQuerySaysSuccess() {
    String no = trade(WalletFault.NONE);
    gateway.pay(charge(no));
    String refundNo = refund(no, WalletFault.REFUND_RESPONSE_LOST);

    assertThat(gateway.refund(refund(refundNo, no)).certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.queryRefund(refundNo).certainty()).isEqualTo(Certainty.SUCCESS);
    assertThat(refunds(refundNo)).isEqualTo(1);
  }

  @Test
  void invalidPaymentIsADefiniteFailureAndNothingExecuted() {
    WalletResult r = gateway.pay(new ChargeRequest(trade(WalletFault.NONE), 1, 0, "EUR"));

    assertThat(r.certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    assertThat(r.errorCode()).isEqualTo("INVALID_REQUEST");
    assertThat(wallet.calls()).isZero();
  }

  @Test
  void strangeOrderNumbersAreEncodedAndNeverThrow() {
    WalletResult r = gateway.queryPayment("t/../../x y");

    assertThat(r.certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(r.errorCode()).isEqualTo("HTTP_400");
    assertThat(wallet.calls()).isZero();
  }

  @Test
  void serverStoppedIsUnknownForEveryCall() {
    String no = trade(WalletFault.NONE);
    server.close();

    assertThat(gateway.pay(charge(no))).isEqualTo(WalletResult.unknown("CONNECTION_REFUSED"));
    assertThat(gateway.queryPayment(no).certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.closePayment(no).certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.refund(refund("r_" + no, no)).certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.queryRefund("r_" + no).certainty()).isEqualTo(Certainty.UNKNOWN);
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private String trade(WalletFault fault) {
    return first(
        "t_" + fault.name().toLowerCase(java.util.Locale.ROOT) + "_",
        no -> wallet.payFault(no) == fault);
  }

  private String refund(String tradeNo, WalletFault fault) {
    return first("r_" + tradeNo + "_", no -> wallet.refundFault(no) == fault);
  }

  private static String first(String prefix, Predicate<String> wanted) {
    for (int i = 0; i < 100_000; i++) {
      if (wanted.test(prefix + i)) {
        return prefix + i;
      }
    }
    throw new IllegalStateException("no order number with the wanted fault");
  }

  private static ChargeRequest charge(String no) {
    return new ChargeRequest(no, 42, 1_000, "EUR");
  }

  private static RefundRequest refund(String refundNo, String tradeNo) {
    return new RefundRequest(refundNo, tradeNo, 1_000, "EUR");
  }

  private long charges(String tradeNo) {
    return wallet.ledger().stream()
        .filter(e -> e.kind() == LedgerEntry.Kind.CHARGE && e.tradeOrderNo().equals(tradeNo))
        .count();
  }

  private long refunds(String refundNo) {
    return wallet.ledger().stream()
        .filter(e -> e.kind() == LedgerEntry.Kind.REFUND && e.orderNo().equals(refundNo))
        .count();
  }

  /** The wallet's clock: moves only when a test says so. */
  private static final class StepClock extends Clock {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.now());

    void advance(Duration d) {
      now.updateAndGet(t -> t.plus(d));
    }

    @Override
    public Instant instant() {
      return now.get();
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  }
}
