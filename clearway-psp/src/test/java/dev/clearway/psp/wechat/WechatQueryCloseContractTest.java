package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static dev.clearway.psp.wechat.WechatHarness.payment;
import static dev.clearway.psp.wechat.WechatHarness.ref;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.sim.psp.PspFaults;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every trade_state, query by either id, and close, against the simulator over HTTP. */
class WechatQueryCloseContractTest {
  private final WechatHarness h =
      WechatHarness.start(o -> o.withPayerDelay(Duration.ofMillis(400)), PspFaults.none());

  @AfterEach
  void stop() {
    h.close();
  }

  @Test
  void aPaidOrderGoesThroughUserpayingToConfirmedSuccess() {
    String no = number("pay");
    h.adapter.create(payment(no, 100));
    PspOutcome first = h.adapter.retrieve(ref(no));
    assertThat(first.certainty()).isEqualTo(ResultCertainty.PENDING);
    // NOTPAY until the simulated customer starts paying (400 ms; a loaded machine may be later).
    assertThat(first.providerStatus()).isIn("NOTPAY", "USERPAYING");
    assertThat(first.customerActionPending()).isTrue();
    WechatHarness.await(
        () -> "USERPAYING".equals(h.adapter.retrieve(ref(no)).providerStatus()),
        Duration.ofSeconds(3));
    PspOutcome paying = h.adapter.retrieve(ref(no));
    assertThat(paying.certainty()).isIn(ResultCertainty.PENDING, ResultCertainty.CONFIRMED_SUCCESS);
    WechatHarness.await(
        () -> h.adapter.retrieve(ref(no)).certainty() == ResultCertainty.CONFIRMED_SUCCESS,
        Duration.ofSeconds(3));
    PspOutcome paid = h.adapter.retrieve(ref(no));
    assertThat(paid.providerStatus()).isEqualTo("SUCCESS");
    assertThat(paid.customerActionPending()).isFalse();

    PspOutcome byId = h.adapter.retrieve(new AttemptRef(null, null, paid.providerPaymentId()));
    assertThat(byId.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(byId.providerPaymentId()).isEqualTo(paid.providerPaymentId());
  }

  @Test
  void aFailedPaymentIsADefiniteFailureThatIsNotEligibleForFailover() {
    String no = number("fail");
    h.adapter.create(payment(no, 100));
    WechatHarness.await(
        () -> h.adapter.retrieve(ref(no)).certainty() == ResultCertainty.DEFINITE_FAILURE,
        Duration.ofSeconds(3));
    PspOutcome failed = h.adapter.retrieve(ref(no));
    assertThat(failed.providerStatus()).isEqualTo("PAYERROR");
    assertThat(failed.errorCode()).isEqualTo("PAYERROR");
    assertThat(failed.failoverEligible()).isFalse();
    assertThat(h.charges(no).get(0).status()).isEqualTo("FAILED");
  }

  @Test
  void anUnknownNumberQueriesAsNoSideEffectOrderNotExist() {
    PspOutcome none = h.adapter.retrieve(ref(number("never")));
    assertThat(none.certainty()).isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(none.errorCode()).isEqualTo("ORDER_NOT_EXIST");
    assertThat(none.requestId()).isNotBlank();
  }

  @Test
  void closingANeverCreatedNumberProvesNoSideEffectAndRefusesALateCreate() {
    String no = number("pay");
    PspOutcome closed = h.adapter.close(ref(no));
    assertThat(closed.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(closed.errorCode()).isEqualTo("CLOSED");
    // The late create (say a delayed retransmission) is refused: the number is spent.
    PspOutcome late = h.adapter.create(payment(no, 100));
    assertThat(late.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(late.errorCode()).isEqualTo("CLOSED");
    assertThat(late.failoverEligible()).isFalse();
    assertThat(h.charges(no)).isEmpty();
  }

  @Test
  void closingAnUnpaidOrderStopsTheCustomerAndQueriesClosed() {
    String no = number("pay");
    h.adapter.create(payment(no, 100));
    assertThat(h.adapter.close(ref(no)).errorCode()).isEqualTo("CLOSED");
    PspOutcome query = h.adapter.retrieve(ref(no));
    assertThat(query.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(query.errorCode()).isEqualTo("CLOSED");
    assertThat(query.providerStatus()).isEqualTo("CLOSED");
    sleep(600);
    assertThat(h.charges(no).get(0).status()).as("the customer came too late").isEqualTo("CLOSED");
    assertThat(h.adapter.create(payment(no, 100)).errorCode()).isEqualTo("CLOSED");
  }

  @Test
  void closingAPaidOrderConfirmsSuccess() {
    String no = number("pay");
    h.adapter.create(payment(no, 100));
    WechatHarness.await(() -> h.charges(no).get(0).charged(), Duration.ofSeconds(3));
    PspOutcome close = h.adapter.close(ref(no));
    assertThat(close.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(close.providerStatus()).isEqualTo("ORDERPAID");
  }

  @Test
  void aRefundedOrderStillQueriesAsConfirmedSuccess() {
    String no = number("pay");
    h.adapter.create(payment(no, 100));
    WechatHarness.await(() -> h.charges(no).get(0).charged(), Duration.ofSeconds(3));
    h.adapter.refund(new RefundCall(number("rf"), ref(no), 40, 100, "CNY"));
    PspOutcome query = h.adapter.retrieve(ref(no));
    assertThat(query.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(query.providerStatus()).isEqualTo("REFUND");
    assertThat(h.charges(no).get(0).charged()).isTrue();
    assertThat(h.charges(no).get(0).refunded()).isEqualTo(40);
  }

  @Test
  void theQueryMeterCountsEveryQuery() {
    String no = number("never");
    h.adapter.create(payment(no, 100));
    long before = h.sim.queries().total();
    for (int i = 0; i < 5; i++) {
      h.adapter.retrieve(ref(no));
    }
    h.adapter.retrieve(ref(number("never")));
    h.adapter.close(ref(no));
    assertThat(h.sim.queries().total() - before).isEqualTo(6);
    assertThat(h.sim.queries().peakPerSecond()).isGreaterThanOrEqualTo(1);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
