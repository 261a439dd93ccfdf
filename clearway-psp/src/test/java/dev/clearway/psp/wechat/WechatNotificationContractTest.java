package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static dev.clearway.psp.wechat.WechatHarness.payment;
import static dev.clearway.psp.wechat.WechatHarness.ref;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.spi.RefundCall;
import dev.clearway.core.channel.spi.RefundOutcome.RefundState;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import dev.clearway.psp.wechat.NotificationReceiver.Delivery;
import dev.clearway.sim.psp.PspFaults;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Notifications: delivery, retries, duplicates, and every way a delivery is refused. */
class WechatNotificationContractTest {
  private final PspFaults faults = new PspFaults(3);
  private final WechatHarness h = WechatHarness.start(o -> o, faults);

  @AfterEach
  void stop() {
    h.close();
  }

  private Delivery paidDelivery(String no) {
    h.adapter.create(payment(no, 100));
    WechatHarness.await(() -> !h.receiver.deliveries().isEmpty(), Duration.ofSeconds(3));
    return h.receiver.deliveries().get(0);
  }

  @Test
  void aPaymentNotificationDecryptsAndVerifies() throws Exception {
    String no = number("pay");
    Delivery d = paidDelivery(no);
    WebhookNotice notice = h.adapter.parseWebhook(d.headers(), d.body());
    assertThat(notice.kind()).isEqualTo(WebhookNotice.Kind.PAYMENT);
    assertThat(notice.idempotencyKey()).isEqualTo(no);
    assertThat(notice.providerPaymentId()).isNotBlank();
    assertThat(notice.payment().certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(notice.payment().rawHash()).hasSize(64);
    assertThat(notice.eventId()).isNotBlank();
    assertThat(notice.signedAt()).isBeforeOrEqualTo(java.time.Instant.now());
    assertThat(new String(d.body(), StandardCharsets.UTF_8))
        .contains("\"event_type\":\"TRANSACTION.SUCCESS\"")
        .doesNotContain(no);
  }

  @Test
  void refundNotificationsCarryTheRefundNumber() throws Exception {
    String no = number("pay");
    paidDelivery(no);
    String refundNo = number("rf");
    h.adapter.refund(new RefundCall(refundNo, ref(no), 60, 100, "CNY"));
    WechatHarness.await(() -> h.receiver.deliveries().size() >= 2, Duration.ofSeconds(3));
    Delivery d = h.receiver.deliveries().get(1);
    WebhookNotice notice = h.adapter.parseWebhook(d.headers(), d.body());
    assertThat(notice.kind()).isEqualTo(WebhookNotice.Kind.REFUND);
    assertThat(notice.refundNo()).isEqualTo(refundNo);
    assertThat(notice.idempotencyKey()).isEqualTo(no);
    assertThat(notice.refund().state()).isEqualTo(RefundState.SUCCEEDED);
  }

  @Test
  void aTamperedBodyFailsTheSignature() {
    Delivery d = paidDelivery(number("pay"));
    byte[] body = d.body().clone();
    body[body.length / 2] ^= 1;
    assertRejected(d.headers(), body, "bad_signature");
    Map<String, String> headers = new HashMap<>(d.headers());
    headers.put("wechatpay-signature", sign(d.headers().get("wechatpay-timestamp"), "x", d.body()));
    assertRejected(headers, d.body(), "bad_signature");
  }

  @Test
  void aTamperedCiphertextFailsToDecrypt() {
    Delivery d = paidDelivery(number("pay"));
    String body = new String(d.body(), StandardCharsets.UTF_8);
    String ciphertext = body.replaceAll(".*\"ciphertext\":\"([^\"]+)\".*", "$1");
    byte[] raw = Base64.getDecoder().decode(ciphertext);
    raw[0] ^= 1;
    String tampered = body.replace(ciphertext, Base64.getEncoder().encodeToString(raw));
    // Re-signed by the platform key, so only the AEAD tag can catch it.
    Map<String, String> headers = resigned(d.headers(), tampered);
    assertRejected(headers, tampered.getBytes(StandardCharsets.UTF_8), "decrypt_failed");
  }

  @Test
  void timestampsOutsideTheToleranceAreStaleEitherWay() {
    Delivery d = paidDelivery(number("pay"));
    // The signed timestamp has whole seconds and the test itself takes time, so the offsets
    // leave ten seconds of margin on each side of the five-minute tolerance.
    WechatPayAdapter late =
        h.adapter(c -> withClock(c, Clock.offset(c.clock(), Duration.ofSeconds(310))));
    WechatPayAdapter early =
        h.adapter(c -> withClock(c, Clock.offset(c.clock(), Duration.ofSeconds(-310))));
    assertThatThrownBy(() -> late.parseWebhook(d.headers(), d.body()))
        .isInstanceOfSatisfying(
            WebhookRejected.class, e -> assertThat(e.code()).isEqualTo("stale_timestamp"));
    assertThatThrownBy(() -> early.parseWebhook(d.headers(), d.body()))
        .isInstanceOfSatisfying(
            WebhookRejected.class, e -> assertThat(e.code()).isEqualTo("stale_timestamp"));
    WechatPayAdapter within =
        h.adapter(c -> withClock(c, Clock.offset(c.clock(), Duration.ofSeconds(250))));
    assertThat(catchCode(() -> within.parseWebhook(d.headers(), d.body()))).isNull();
  }

  @Test
  void aReplayOfAnOldDeliveryIsRefused() {
    Delivery d = paidDelivery(number("pay"));
    // An attacker replays the recorded delivery, byte for byte, ten minutes later.
    WechatPayAdapter tenMinutesLater =
        h.adapter(c -> withClock(c, Clock.offset(c.clock(), Duration.ofMinutes(10))));
    assertThatThrownBy(() -> tenMinutesLater.parseWebhook(d.headers(), d.body()))
        .isInstanceOfSatisfying(
            WebhookRejected.class, e -> assertThat(e.code()).isEqualTo("stale_timestamp"));
    // A signed body with an old timestamp, re-signed: still stale.
    String old = Long.toString(java.time.Instant.now().minusSeconds(3_600).getEpochSecond());
    Map<String, String> headers = new HashMap<>(d.headers());
    headers.put("wechatpay-timestamp", old);
    headers.put("wechatpay-signature", sign(old, headers.get("wechatpay-nonce"), d.body()));
    assertRejected(headers, d.body(), "stale_timestamp");
  }

  @Test
  void missingHeadersOrABodyThatIsNotANotificationAreMalformed() {
    Delivery d = paidDelivery(number("pay"));
    for (String name :
        List.of(
            "wechatpay-timestamp", "wechatpay-nonce", "wechatpay-signature", "wechatpay-serial")) {
      Map<String, String> headers = new HashMap<>(d.headers());
      headers.remove(name);
      assertRejected(headers, d.body(), "malformed");
    }
    String notJson = "not json";
    assertRejected(resigned(d.headers(), notJson), notJson.getBytes(), "malformed");
  }

  @Test
  void aReceiverAnswering500GetsItAgainOnTheScheduleUntil200Or204() {
    h.receiver.answer(204, 500, 500, 500, 503);
    String no = number("pay");
    h.adapter.create(payment(no, 100));
    WechatHarness.await(() -> h.receiver.deliveries().size() >= 5, Duration.ofSeconds(5));
    sleep(1_000); // the next retry would be 600 ms later (10 min x 0.001)
    List<Delivery> all = h.receiver.deliveries();
    assertThat(all).hasSize(5);
    assertThat(all).extracting(d -> eventId(d)).containsOnly(eventId(all.get(0)));
    long[] minimumGapsMillis = {15, 15, 30, 180};
    for (int i = 1; i < all.size(); i++) {
      long gap = (all.get(i).arrivedNanos() - all.get(i - 1).arrivedNanos()) / 1_000_000;
      assertThat(gap)
          .as("gap before retry %d", i)
          .isGreaterThanOrEqualTo(minimumGapsMillis[i - 1] - 2);
    }
    assertThat(h.sim.notificationsDelivered()).isEqualTo(1);
  }

  @Test
  void a200StopsRetries() {
    h.receiver.answer(200, 500);
    h.adapter.create(payment(number("pay"), 100));
    WechatHarness.await(() -> h.receiver.deliveries().size() >= 2, Duration.ofSeconds(3));
    sleep(300);
    assertThat(h.receiver.deliveries()).hasSize(2);
  }

  @Test
  void duplicatesArriveWithTheSameEventId() throws Exception {
    faults.webhookDuplicateRate(1.0).webhookDelayMaxMillis(50);
    String no = number("pay");
    h.adapter.create(payment(no, 100));
    WechatHarness.await(() -> h.receiver.deliveries().size() >= 2, Duration.ofSeconds(3));
    List<Delivery> all = h.receiver.deliveries();
    assertThat(eventId(all.get(1))).isEqualTo(eventId(all.get(0)));
    for (Delivery d : all) {
      assertThat(h.adapter.parseWebhook(d.headers(), d.body()).idempotencyKey()).isEqualTo(no);
    }
  }

  @Test
  void aNullTargetStopsSendingAndATargetOverridesNotifyUrl() throws Exception {
    h.sim.webhookTarget(null);
    h.adapter.create(payment(number("pay"), 100));
    sleep(400);
    assertThat(h.receiver.deliveries()).isEmpty();
    try (NotificationReceiver other = new NotificationReceiver()) {
      h.sim.webhookTarget(other.url());
      h.adapter.create(payment(number("pay"), 100));
      WechatHarness.await(() -> other.deliveries().size() == 1, Duration.ofSeconds(3));
      assertThat(h.receiver.deliveries()).isEmpty();
    }
  }

  // ---- helpers -------------------------------------------------------------------------------

  private String eventId(Delivery d) {
    try {
      return h.adapter.parseWebhook(d.headers(), d.body()).eventId();
    } catch (WebhookRejected e) {
      throw new AssertionError(e.code());
    }
  }

  private static WechatPayConfig withClock(WechatPayConfig c, Clock clock) {
    return new WechatPayConfig(
        c.baseUrl(),
        c.credentials(),
        c.notifyUrl(),
        c.connectTimeout(),
        c.requestTimeout(),
        clock,
        c.notificationTolerance());
  }

  private static Map<String, String> resigned(Map<String, String> headers, String body) {
    Map<String, String> out = new HashMap<>(headers);
    out.put(
        "wechatpay-signature",
        sign(
            headers.get("wechatpay-timestamp"),
            headers.get("wechatpay-nonce"),
            body.getBytes(StandardCharsets.UTF_8)));
    return out;
  }

  private static String sign(String timestamp, String nonce, byte[] body) {
    String message =
        timestamp + "\n" + nonce + "\n" + new String(body, StandardCharsets.UTF_8) + "\n";
    return WechatSignatures.sign(WechatHarness.PLATFORM.getPrivate(), message);
  }

  private void assertRejected(Map<String, String> headers, byte[] body, String code) {
    assertThat(catchCode(() -> h.adapter.parseWebhook(headers, body))).isEqualTo(code);
  }

  private interface Parse {
    WebhookNotice run() throws WebhookRejected;
  }

  private static String catchCode(Parse parse) {
    try {
      parse.run();
      return null;
    } catch (WebhookRejected e) {
      assertThat(e.getMessage()).doesNotContain("ciphertext");
      return e.code();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
