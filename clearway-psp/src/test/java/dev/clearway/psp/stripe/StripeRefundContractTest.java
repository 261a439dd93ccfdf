package dev.clearway.psp.stripe;

import static dev.clearway.psp.stripe.StripeFixture.payment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.RefundOutcome.RefundState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Refunds by number against the simulated Stripe API over HTTP. */
class StripeRefundContractTest {

  private final StripeFixture stripe = new StripeFixture();

  @AfterEach
  void close() {
    stripe.close();
  }

  private AttemptRef paid(String paymentMethod, boolean withId) {
    CreatePayment p = payment(paymentMethod);
    String id = stripe.adapter.create(p).providerPaymentId();
    return new AttemptRef(p.idempotencyKey(), p.merchantReference(), withId ? id : null);
  }

  @Test
  void sameRefundNumberRefundsOnce() {
    AttemptRef attempt = paid("pm_card_visa", true);
    RefundCall call = new RefundCall("rf_once", attempt, 300, 1_000, "EUR");

    RefundOutcome first = stripe.adapter.refund(call);
    RefundOutcome again = stripe.adapter.refund(call);
    RefundOutcome queried = stripe.adapter.queryRefund(call);

    assertThat(first.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(first.providerRefundId()).startsWith("re_");
    assertThat(first.requestId()).startsWith("req_");
    assertThat(again.providerRefundId()).isEqualTo(first.providerRefundId());
    assertThat(queried.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(queried.providerRefundId()).isEqualTo(first.providerRefundId());
    assertThat(stripe.charges()).singleElement().extracting("refunded").isEqualTo(300L);
  }

  @Test
  void refundFindsThePaymentBySearchWithoutItsId() {
    AttemptRef attempt = paid("pm_card_visa", false);

    RefundOutcome out = stripe.adapter.refund(new RefundCall("rf_s", attempt, 1_000, 1_000, "EUR"));

    assertThat(out.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(stripe.charges()).singleElement().extracting("refunded").isEqualTo(1_000L);
  }

  @Test
  void overRefundIsRejected() {
    AttemptRef attempt = paid("pm_card_visa", true);
    stripe.adapter.refund(new RefundCall("rf_a", attempt, 700, 1_000, "EUR"));

    RefundOutcome over = stripe.adapter.refund(new RefundCall("rf_b", attempt, 400, 1_000, "EUR"));

    assertThat(over.state()).isEqualTo(RefundState.REJECTED);
    assertThat(over.errorCode()).isEqualTo("amount_too_large");
    assertThat(stripe.charges()).singleElement().extracting("refunded").isEqualTo(700L);
  }

  @Test
  void refundOfAnUnpaidPaymentIsRejected() {
    AttemptRef attempt = paid("pm_card_threeDSecureRequired", true);

    RefundOutcome out = stripe.adapter.refund(new RefundCall("rf_u", attempt, 100, 1_000, "EUR"));

    assertThat(out.state()).isEqualTo(RefundState.REJECTED);
    assertThat(out.errorCode()).isEqualTo("payment_intent_unexpected_state");
  }

  @Test
  void sameNumberWithAnotherAmountNeedsAPerson() {
    AttemptRef attempt = paid("pm_card_visa", true);
    stripe.adapter.refund(new RefundCall("rf_m", attempt, 100, 1_000, "EUR"));

    RefundOutcome out = stripe.adapter.refund(new RefundCall("rf_m", attempt, 200, 1_000, "EUR"));

    assertThat(out.state()).isEqualTo(RefundState.ABNORMAL);
    assertThat(out.errorCode()).isEqualTo("idempotency_error");
    assertThat(stripe.charges()).singleElement().extracting("refunded").isEqualTo(100L);
  }

  @Test
  void pendingRefundSettlesAndQueryReadsTheCurrentState() throws InterruptedException {
    AttemptRef attempt = paid("pm_card_refundPending", true);
    RefundCall call = new RefundCall("rf_p", attempt, 500, 1_000, "EUR");

    RefundOutcome first = stripe.adapter.refund(call);
    Thread.sleep(400);
    RefundOutcome later = stripe.adapter.queryRefund(call);

    assertThat(first.state()).isEqualTo(RefundState.PROCESSING);
    assertThat(later.state()).isEqualTo(RefundState.SUCCEEDED);
    assertThat(stripe.charges()).singleElement().extracting("refunded").isEqualTo(500L);
  }

  @Test
  void failedRefundIsClosedAndGivesTheAmountBack() throws InterruptedException {
    AttemptRef attempt = paid("pm_card_refundFail", true);
    RefundCall call = new RefundCall("rf_f", attempt, 500, 1_000, "EUR");

    RefundOutcome first = stripe.adapter.refund(call);
    Thread.sleep(400);
    RefundOutcome later = stripe.adapter.queryRefund(call);

    assertThat(first.state()).isEqualTo(RefundState.PROCESSING);
    assertThat(later.state()).isEqualTo(RefundState.CLOSED);
    assertThat(stripe.charges()).singleElement().extracting("refunded").isEqualTo(0L);
    assertThat(stripe.adapter.refund(new RefundCall("rf_f2", attempt, 1_000, 1_000, "EUR")).state())
        .as("a new number may refund the whole amount again (pending, not amount_too_large)")
        .isEqualTo(RefundState.PROCESSING);
  }

  @Test
  void refundInABlackholeIsUnknown() {
    AttemptRef attempt = paid("pm_card_visa", true);
    stripe.sim.faults().outage(dev.clearway.sim.psp.PspFaults.Outage.BLACKHOLE);

    RefundOutcome out = stripe.adapter.refund(new RefundCall("rf_bh", attempt, 100, 1_000, "EUR"));

    assertThat(out.state()).isEqualTo(RefundState.UNKNOWN);
  }
}
