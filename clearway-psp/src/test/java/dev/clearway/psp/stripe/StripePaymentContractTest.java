package dev.clearway.psp.stripe;

import static dev.clearway.psp.stripe.StripeFixture.byKey;
import static dev.clearway.psp.stripe.StripeFixture.payment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Create, retrieve, search and close against the simulated Stripe API over HTTP. */
class StripePaymentContractTest {

  private final StripeFixture stripe = new StripeFixture();

  @AfterEach
  void close() {
    stripe.close();
  }

  @Test
  void declaresStripeCapabilities() {
    assertThat(stripe.adapter.channel()).isEqualTo("stripe");
    var caps = stripe.adapter.capabilities();
    assertThat(caps.supportsIdempotentReplay()).isTrue();
    assertThat(caps.supportsRetrieveByProviderId()).isTrue();
    assertThat(caps.supportsSearchByMerchantReference()).isTrue();
    assertThat(caps.webhookAuthoritative()).isFalse();
    assertThat(caps.settlementReportAvailable()).isTrue();
  }

  @Test
  void succeededIsConfirmedSuccessWithEvidence() {
    CreatePayment p = payment("pm_card_visa");
    PspOutcome out = stripe.adapter.create(p);

    assertThat(out.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(out.providerStatus()).isEqualTo("succeeded");
    assertThat(out.providerPaymentId()).startsWith("pi_");
    assertThat(out.requestId()).startsWith("req_");
    assertThat(out.rawHash()).matches("[0-9a-f]{64}");
    assertThat(stripe.charges())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.charged()).isTrue();
              assertThat(c.idempotencyKey()).isEqualTo(p.idempotencyKey());
              assertThat(c.merchantReference()).isEqualTo(p.merchantReference());
              assertThat(c.amount()).isEqualTo(1_000);
            });
  }

  @Test
  void declinedCardIsDefiniteFailureNotEligibleForFailover() {
    PspOutcome out = stripe.adapter.create(payment("pm_card_chargeDeclined"));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(out.errorCode()).isEqualTo("card_declined");
    assertThat(out.providerStatus()).isEqualTo("requires_payment_method");
    assertThat(out.providerPaymentId()).startsWith("pi_");
    assertThat(out.failoverEligible()).isFalse();
    assertThat(stripe.charges()).singleElement().extracting("status").isEqualTo("FAILED");
  }

  @Test
  void threeDSecureIsPendingOnTheCustomer() {
    PspOutcome out = stripe.adapter.create(payment("pm_card_threeDSecureRequired"));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.PENDING);
    assertThat(out.customerActionPending()).isTrue();
    assertThat(out.providerStatus()).isEqualTo("requires_action");
    assertThat(stripe.charged()).isZero();
  }

  @Test
  void processingIsPendingThenSucceedsOnRetrieve() throws InterruptedException {
    CreatePayment p = payment("pm_card_async");
    PspOutcome created = stripe.adapter.create(p);
    assertThat(created.certainty()).isEqualTo(ResultCertainty.PENDING);
    assertThat(created.customerActionPending()).isFalse();
    assertThat(created.providerStatus()).isEqualTo("processing");

    Thread.sleep(400); // the fast timing settles after 200 ms
    AttemptRef ref =
        new AttemptRef(p.idempotencyKey(), p.merchantReference(), created.providerPaymentId());
    PspOutcome later = stripe.adapter.retrieve(ref);
    assertThat(later.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(stripe.charged()).isOne();
  }

  @Test
  void wrongKeyIsRefusedWithoutSideEffectAndNotEligible() {
    StripeAdapter wrong = new StripeAdapter(stripe.config().withSecretKey("sk_test_wrong"));
    PspOutcome out = wrong.create(payment("pm_card_visa"));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(out.errorCode()).isEqualTo("auth");
    assertThat(out.failoverEligible()).isFalse();
    assertThat(stripe.charges()).isEmpty();
  }

  @Test
  void unknownPaymentMethodIsARefusedRequest() {
    PspOutcome out = stripe.adapter.create(payment("pm_card_nonexistent"));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(out.errorCode()).isEqualTo("resource_missing");
    assertThat(out.failoverEligible()).isFalse();
    assertThat(stripe.charges()).isEmpty();
  }

  @Test
  void retrievesByProviderIdAndBySearch() {
    CreatePayment p = payment("pm_card_visa");
    String id = stripe.adapter.create(p).providerPaymentId();

    PspOutcome byId = stripe.adapter.retrieve(new AttemptRef(p.idempotencyKey(), null, id));
    PspOutcome bySearch = stripe.adapter.retrieve(byKey(p));
    PspOutcome byReference =
        stripe.adapter.retrieve(new AttemptRef(null, p.merchantReference(), null));

    assertThat(byId.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(bySearch.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(bySearch.providerPaymentId()).isEqualTo(id);
    assertThat(byReference.providerPaymentId()).isEqualTo(id);
    assertThat(stripe.sim.queries().total()).isEqualTo(3);
  }

  @Test
  void emptySearchProvesNothing() {
    PspOutcome out = stripe.adapter.retrieve(byKey(payment("pm_card_visa")));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(out.errorCode()).isEqualTo("not_found_in_search");
  }

  @Test
  void searchIsEventuallyConsistent() throws InterruptedException {
    try (StripeFixture lagging =
        new StripeFixture(
            StripeFixture.options(
                PspFaults.none(), StripeSimTiming.fast().withSearchLag(Duration.ofMillis(300))))) {
      CreatePayment p = payment("pm_card_visa");
      lagging.adapter.create(p);

      PspOutcome early = lagging.adapter.retrieve(byKey(p));
      Thread.sleep(400);
      PspOutcome late = lagging.adapter.retrieve(byKey(p));

      assertThat(early.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
      assertThat(early.errorCode()).isEqualTo("not_found_in_search");
      assertThat(late.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    }
  }

  @Test
  void retrieveOfAnUnknownIdIsUnknown() {
    PspOutcome out = stripe.adapter.retrieve(new AttemptRef("k", "o", "pi_doesnotexist"));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(out.errorCode()).isEqualTo("resource_missing");
  }

  @Test
  void closeCancelsAnUnpaidIntentFoundBySearch() {
    CreatePayment p = payment("pm_card_threeDSecureRequired");
    stripe.adapter.create(p);

    PspOutcome closed = stripe.adapter.close(byKey(p));
    PspOutcome again = stripe.adapter.close(byKey(p));

    assertThat(closed.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(closed.errorCode()).isEqualTo("CLOSED");
    assertThat(closed.providerStatus()).isEqualTo("canceled");
    assertThat(again.errorCode()).isEqualTo("CLOSED");
    assertThat(stripe.charges()).singleElement().extracting("status").isEqualTo("CLOSED");
    assertThat(stripe.adapter.retrieve(byKey(p)).errorCode()).isEqualTo("CLOSED");
  }

  @Test
  void closeOfAPaidIntentIsConfirmedSuccess() {
    CreatePayment p = payment("pm_card_visa");
    String id = stripe.adapter.create(p).providerPaymentId();

    PspOutcome out = stripe.adapter.close(new AttemptRef(p.idempotencyKey(), null, id));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(stripe.charged()).isOne();
  }

  @Test
  void closeOfAProcessingIntentIsUnknown() {
    CreatePayment p = payment("pm_card_async");
    stripe.adapter.create(p);

    PspOutcome out = stripe.adapter.close(byKey(p));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(out.providerStatus()).isEqualTo("processing");
  }

  @Test
  void closeOfAnAttemptStripeNeverSawIsUnknown() {
    PspOutcome out = stripe.adapter.close(byKey(payment("pm_card_visa")));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(out.errorCode()).isEqualTo("not_found_in_search");
    assertThat(stripe.charges()).isEmpty();
  }
}
