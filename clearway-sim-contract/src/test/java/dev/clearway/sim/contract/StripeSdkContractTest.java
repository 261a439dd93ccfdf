package dev.clearway.sim.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.stripe.StripeClient;
import com.stripe.exception.StripeException;
import com.stripe.model.Event;
import com.stripe.model.PaymentIntent;
import com.stripe.model.Refund;
import com.stripe.net.RequestOptions;
import com.stripe.net.Webhook;
import com.stripe.param.PaymentIntentCreateParams;
import com.stripe.param.RefundCreateParams;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Stripe's official Java SDK, its API base pointed at the simulator, creates a PaymentIntent under
 * an idempotency key (and replays it), retrieves it and refunds it.
 */
class StripeSdkContractTest {
  private static final String SECRET_KEY = "sk_test_clearway_contract";
  private static final String WEBHOOK_SECRET = "whsec_clearway_contract";
  private static StripeSimServer sim;
  private static StripeClient stripe;

  @BeforeAll
  static void start() {
    sim = StripeSimServer.start(StripeSimOptions.defaults(SECRET_KEY, WEBHOOK_SECRET));
    sim.webhookTarget(null);
    stripe =
        StripeClient.builder()
            .setApiKey(SECRET_KEY)
            .setApiBase(sim.baseUrl().toString())
            .setMaxNetworkRetries(0)
            .build();
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @Test
  void theSdkCreatesReplaysRetrievesAndRefundsAPaymentIntent() throws StripeException {
    String reference = "ord_" + UUID.randomUUID();
    PaymentIntentCreateParams params =
        PaymentIntentCreateParams.builder()
            .setAmount(1_500L)
            .setCurrency("usd")
            .setConfirm(true)
            .setPaymentMethod("pm_card_visa")
            .putMetadata("merchant_reference", reference)
            .build();
    RequestOptions key = RequestOptions.builder().setIdempotencyKey("pay-" + reference).build();

    PaymentIntent created = stripe.v1().paymentIntents().create(params, key);
    PaymentIntent replayed = stripe.v1().paymentIntents().create(params, key);

    assertThat(created.getStatus()).isEqualTo("succeeded");
    assertThat(created.getAmount()).isEqualTo(1_500L);
    assertThat(created.getMetadata()).containsEntry("merchant_reference", reference);
    assertThat(created.getLastResponse().requestId()).startsWith("req_");
    assertThat(replayed.getId()).isEqualTo(created.getId());
    assertThat(replayed.getLastResponse().headers().firstValue("Idempotent-Replayed"))
        .contains("true");

    PaymentIntent retrieved = stripe.v1().paymentIntents().retrieve(created.getId());
    assertThat(retrieved.getStatus()).isEqualTo("succeeded");
    assertThat(retrieved.getAmountReceived()).isEqualTo(1_500L);

    Refund refund =
        stripe
            .v1()
            .refunds()
            .create(
                RefundCreateParams.builder()
                    .setPaymentIntent(created.getId())
                    .setAmount(500L)
                    .build(),
                RequestOptions.builder().setIdempotencyKey("refund-" + reference).build());
    assertThat(refund.getStatus()).isEqualTo("succeeded");
    assertThat(refund.getAmount()).isEqualTo(500L);
    assertThat(refund.getPaymentIntent()).isEqualTo(created.getId());
  }

  @Test
  void theSdkVerifiesTheWebhookByItsExactHeaderName() throws Exception {
    try (RawReceiver receiver = new RawReceiver()) {
      sim.webhookTarget(receiver.url());
      PaymentIntent created =
          stripe
              .v1()
              .paymentIntents()
              .create(
                  PaymentIntentCreateParams.builder()
                      .setAmount(700L)
                      .setCurrency("usd")
                      .setConfirm(true)
                      .setPaymentMethod("pm_card_visa")
                      .build());

      RawReceiver.Received webhook = receiver.next(Duration.ofSeconds(10));
      Event event =
          Webhook.constructEvent(
              webhook.body(), webhook.exactly("Stripe-Signature").orElseThrow(), WEBHOOK_SECRET);

      assertThat(event.getType()).startsWith("payment_intent.");
      assertThat(event.getDataObjectDeserializer().getRawJson()).contains(created.getId());
    } finally {
      sim.webhookTarget(null);
    }
  }

  @Test
  void responseHeadersCarryTheirDocumentedSpelling() throws Exception {
    List<String> lines =
        RawHttp.headerLines(
            sim.baseUrl(),
            "GET",
            "/v1/payment_intents/pi_unknown",
            "Authorization: Bearer " + SECRET_KEY);

    assertThat(RawHttp.headerNames(lines)).contains("Request-Id", "Content-Type");
  }
}
