package dev.clearway.psp.stripe;

import static dev.clearway.psp.stripe.StripeFixture.WEBHOOK_SECRET;
import static dev.clearway.psp.stripe.StripeFixture.options;
import static dev.clearway.psp.stripe.StripeFixture.payment;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome.RefundState;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import dev.clearway.core.signature.WebhookSignature;
import dev.clearway.psp.stripe.WebhookInbox.Delivery;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Webhooks from the simulator over HTTP, verified and decoded by the adapter. */
class StripeWebhookContractTest {
  private static final Duration WAIT = Duration.ofSeconds(5);

  private StripeFixture stripe;
  private WebhookInbox inbox;

  @BeforeEach
  void start() throws Exception {
    inbox = new WebhookInbox(0);
  }

  @AfterEach
  void stop() {
    if (stripe != null) {
      stripe.close();
    }
    inbox.close();
  }

  private StripeFixture stripe(StripeSimOptions options) {
    stripe = new StripeFixture(options);
    stripe.sim.webhookTarget(inbox.url());
    return stripe;
  }

  @Test
  void asyncPaymentSucceedsByAVerifiedWebhook() throws Exception {
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    CreatePayment p = payment("pm_card_async");
    String id = stripe.adapter.create(p).providerPaymentId();

    Delivery delivery = inbox.await(1, WAIT).get(0);
    WebhookNotice notice = stripe.adapter.parseWebhook(delivery.headers(), delivery.body());

    assertThat(delivery.headers()).containsKey("stripe-signature");
    assertThat(notice.kind()).isEqualTo(WebhookNotice.Kind.PAYMENT);
    assertThat(notice.eventId()).startsWith("evt_");
    assertThat(notice.idempotencyKey()).isEqualTo(p.idempotencyKey());
    assertThat(notice.providerPaymentId()).isEqualTo(id);
    assertThat(notice.payment().certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(notice.payment().rawHash()).matches("[0-9a-f]{64}");
    assertThat(notice.signedAt()).isCloseTo(Instant.now(), within(Duration.ofSeconds(5)));
  }

  @Test
  void declineWebhookIsADefiniteFailure() throws Exception {
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    stripe.adapter.create(payment("pm_card_chargeDeclined"));

    Delivery delivery = inbox.await(1, WAIT).get(0);
    WebhookNotice notice = stripe.adapter.parseWebhook(delivery.headers(), delivery.body());

    assertThat(notice.payment().certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(notice.payment().errorCode()).isEqualTo("card_declined");
  }

  @Test
  void refundWebhooksNameTheRefundNumber() throws Exception {
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    CreatePayment p = payment("pm_card_refundPending");
    String id = stripe.adapter.create(p).providerPaymentId();
    stripe.adapter.refund(
        new RefundCall("rf_1", new AttemptRef(p.idempotencyKey(), null, id), 400, 1_000, "EUR"));

    List<Delivery> all = inbox.await(3, WAIT);
    assertThat(all).hasSize(3); // payment succeeded, refund created (pending), refund updated
    List<WebhookNotice> refunds =
        all.stream()
            .map(d -> parse(stripe.adapter, d))
            .filter(n -> n.kind() == WebhookNotice.Kind.REFUND)
            .toList();

    assertThat(refunds).hasSize(2).allSatisfy(n -> assertThat(n.refundNo()).isEqualTo("rf_1"));
    assertThat(refunds)
        .extracting(n -> n.refund().state())
        .containsExactlyInAnyOrder(RefundState.PROCESSING, RefundState.SUCCEEDED);
    assertThat(refunds).allSatisfy(n -> assertThat(n.providerPaymentId()).isEqualTo(id));
  }

  @Test
  void duplicatesCarryTheSameEventId() throws Exception {
    stripe(options(new PspFaults(5).webhookDuplicateRate(1.0), StripeSimTiming.fast()));
    stripe.adapter.create(payment("pm_card_visa"));

    List<Delivery> both = inbox.await(2, WAIT);

    assertThat(both).hasSize(2);
    assertThat(both)
        .extracting(d -> parse(stripe.adapter, d).eventId())
        .containsOnly(parse(stripe.adapter, both.get(0)).eventId());
  }

  @Test
  void delaysReorderDeliveries() throws Exception {
    stripe(options(new PspFaults(9).webhookDelayMaxMillis(300), StripeSimTiming.fast()));
    for (int i = 0; i < 6; i++) {
      // Fixed keys: the delays are drawn from the seed per key, so the run replays.
      stripe.adapter.create(
          new CreatePayment("att_order_" + i, "ord_" + i, 1_000, "EUR", "pm_card_visa", null));
    }

    List<Delivery> all = inbox.await(6, WAIT);

    List<Long> sequence =
        all.stream()
            .map(d -> Long.parseLong(parse(stripe.adapter, d).eventId().substring(4), 36))
            .toList();
    assertThat(sequence).hasSize(6).doesNotHaveDuplicates();
    assertThat(sequence)
        .as("no ordering guarantee")
        .isNotEqualTo(sequence.stream().sorted().toList());
  }

  @Test
  void nonSuccessAnswersAreRetried() throws Exception {
    inbox.close();
    inbox = new WebhookInbox(2);
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    stripe.adapter.create(payment("pm_card_visa"));

    List<Delivery> delivered = inbox.await(1, WAIT);

    assertThat(delivered).hasSize(1);
    assertThat(inbox.received()).isEqualTo(3);
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (stripe.sim.webhooksDelivered() < 1 && System.nanoTime() < deadline) {
      Thread.sleep(10); // the sender counts the 200 after the inbox recorded the delivery
    }
    assertThat(stripe.sim.webhookAttempts()).isEqualTo(3);
    assertThat(stripe.sim.webhooksDelivered()).isEqualTo(1);
  }

  @Test
  void forgedAndDamagedDeliveriesAreRejected() throws Exception {
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    stripe.adapter.create(payment("pm_card_visa"));
    Delivery real = inbox.await(1, WAIT).get(0);
    byte[] body = real.body();
    String header = real.headers().get("stripe-signature");
    StripeAdapter adapter = stripe.adapter;

    byte[] tampered =
        new String(body, StandardCharsets.UTF_8)
            .replace("\"amount\":1000", "\"amount\":1")
            .getBytes(StandardCharsets.UTF_8);
    assertThat(tampered).isNotEqualTo(body);
    String otherSecret = WebhookSignature.sign(body, Instant.now(), "whsec_attacker");

    assertRejected(
        () -> adapter.parseWebhook(Map.of("stripe-signature", header), tampered), "bad_signature");
    assertRejected(
        () -> adapter.parseWebhook(Map.of("stripe-signature", otherSecret), body), "bad_signature");
    assertRejected(() -> adapter.parseWebhook(Map.of(), body), "malformed");
    assertRejected(
        () -> adapter.parseWebhook(Map.of("stripe-signature", "t=abc,v1=zz"), body), "malformed");
    assertRejected(
        () ->
            adapter.parseWebhook(Map.of("stripe-signature", header.replaceAll("v1=", "v0=")), body),
        "malformed");
    // The genuine delivery still verifies.
    assertThat(adapter.parseWebhook(real.headers(), body).kind())
        .isEqualTo(WebhookNotice.Kind.PAYMENT);
  }

  @Test
  void replayOfAnOldDeliveryIsStale() throws Exception {
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    stripe.adapter.create(payment("pm_card_visa"));
    Delivery captured = inbox.await(1, WAIT).get(0);
    Instant signedAt = stripe.adapter.parseWebhook(captured.headers(), captured.body()).signedAt();

    StripeAdapter later = adapterAt(signedAt.plusSeconds(301));
    StripeAdapter justInTime = adapterAt(signedAt.plusSeconds(300));

    assertRejected(
        () -> later.parseWebhook(captured.headers(), captured.body()), "stale_timestamp");
    assertThat(justInTime.parseWebhook(captured.headers(), captured.body()).eventId())
        .startsWith("evt_");
  }

  @Test
  void futureTimestampIsStale() throws Exception {
    Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(400));
    stripe(options(PspFaults.none(), StripeSimTiming.fast()).withClock(ahead));
    stripe.adapter.create(payment("pm_card_visa"));
    Delivery fromTheFuture = inbox.await(1, WAIT).get(0);

    assertRejected(
        () -> stripe.adapter.parseWebhook(fromTheFuture.headers(), fromTheFuture.body()),
        "stale_timestamp");
  }

  @Test
  void unknownEventTypesAreIgnored() throws Exception {
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    byte[] body =
        "{\"id\":\"evt_x\",\"type\":\"customer.created\",\"data\":{\"object\":{\"id\":\"cus_1\"}}}"
            .getBytes(StandardCharsets.UTF_8);
    Map<String, String> headers = new HashMap<>();
    headers.put("stripe-signature", WebhookSignature.sign(body, Instant.now(), WEBHOOK_SECRET));

    WebhookNotice notice = stripe.adapter.parseWebhook(headers, body);

    assertThat(notice.kind()).isEqualTo(WebhookNotice.Kind.IGNORED);
    assertThat(notice.eventId()).isEqualTo("evt_x");
  }

  @Test
  void authenticButNonEventBodyIsMalformed() {
    stripe(options(PspFaults.none(), StripeSimTiming.fast()));
    byte[] body = "not json".getBytes(StandardCharsets.UTF_8);
    String header = WebhookSignature.sign(body, Instant.now(), WEBHOOK_SECRET);

    assertRejected(
        () -> stripe.adapter.parseWebhook(Map.of("stripe-signature", header), body), "malformed");
  }

  private StripeAdapter adapterAt(Instant now) {
    return new StripeAdapter(stripe.config().withClock(Clock.fixed(now, ZoneOffset.UTC)));
  }

  private static WebhookNotice parse(StripeAdapter adapter, Delivery d) {
    try {
      return adapter.parseWebhook(d.headers(), d.body());
    } catch (WebhookRejected e) {
      throw new AssertionError("rejected: " + e.code(), e);
    }
  }

  private static void assertRejected(ThrowingCallable call, String code) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(WebhookRejected.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  private static org.assertj.core.data.TemporalUnitOffset within(Duration d) {
    return new org.assertj.core.data.TemporalUnitWithinOffset(
        d.toMillis(), java.time.temporal.ChronoUnit.MILLIS);
  }
}
