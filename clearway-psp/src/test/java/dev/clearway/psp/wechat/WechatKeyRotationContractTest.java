package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static dev.clearway.psp.wechat.WechatHarness.payment;
import static dev.clearway.psp.wechat.WechatHarness.ref;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import dev.clearway.psp.wechat.NotificationReceiver.Delivery;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Platform key rotation against the simulator: the adapter verifies with the key the {@code
 * Wechatpay-Serial} header names, trusts several keys at once, and refuses an unknown serial
 * (response UNKNOWN, notification refused), reporting it.
 */
class WechatKeyRotationContractTest {
  private static final String NEW_SERIAL = "PLATFORM-SERIAL-2";
  private static final KeyPair NEW_PLATFORM = rsa();

  private final WechatHarness h = WechatHarness.start();
  private final List<String> unknown = new ArrayList<>();

  @AfterEach
  void stop() {
    h.close();
  }

  private WechatPayAdapter adapter(WechatPlatformKeys keys) {
    WechatPayConfig c = h.config;
    return new WechatPayAdapter(
        new WechatPayConfig(
            c.baseUrl(),
            new WechatCredentials(
                WechatHarness.MCHID,
                WechatHarness.APPID,
                WechatHarness.MERCHANT.getPrivate(),
                "MERCHANT-SERIAL-1",
                keys,
                WechatHarness.API_V3_KEY),
            c.notifyUrl(),
            c.connectTimeout(),
            c.requestTimeout(),
            c.clock(),
            c.notificationTolerance()),
        (mchid, kind) -> unknown.add(mchid + ":" + kind));
  }

  @Test
  void bothTheOldAndTheNewSerialVerifyDuringARotation() throws Exception {
    WechatPayAdapter both =
        adapter(
            WechatPlatformKeys.of(WechatHarness.PLATFORM_SERIAL, WechatHarness.PLATFORM.getPublic())
                .with(NEW_SERIAL, NEW_PLATFORM.getPublic()));
    String before = number("never");
    assertThat(both.create(payment(before, 100)).certainty()).isEqualTo(ResultCertainty.PENDING);

    h.sim.rotatePlatformKey(NEW_PLATFORM.getPrivate(), NEW_SERIAL);
    String after = number("pay");
    assertThat(both.create(payment(after, 100)).certainty()).isEqualTo(ResultCertainty.PENDING);
    assertThat(both.retrieve(ref(before)).certainty()).isEqualTo(ResultCertainty.PENDING);
    WechatHarness.await(() -> !h.receiver.deliveries().isEmpty(), Duration.ofSeconds(3));
    Delivery d = h.receiver.deliveries().get(0);
    assertThat(d.headers()).containsEntry("wechatpay-serial", NEW_SERIAL);
    WebhookNotice notice = both.parseWebhook(d.headers(), d.body());
    assertThat(notice.payment().certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    assertThat(unknown).isEmpty();
  }

  @Test
  void aResponseUnderAnUnknownSerialIsUnknownAndCounted() {
    WechatPayAdapter oldOnly = h.adapter;
    WechatPayAdapter counted =
        adapter(
            WechatPlatformKeys.of(
                WechatHarness.PLATFORM_SERIAL, WechatHarness.PLATFORM.getPublic()));
    h.sim.rotatePlatformKey(NEW_PLATFORM.getPrivate(), NEW_SERIAL);
    String no = number("never");
    PspOutcome outcome = counted.create(payment(no, 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(outcome.errorCode()).isEqualTo("UNKNOWN_PLATFORM_SERIAL");
    assertThat(unknown).containsExactly(WechatHarness.MCHID + ":response");
    // The order was created all the same: the same number, queried once the key is configured,
    // finds it.
    assertThat(oldOnly.retrieve(ref(no)).certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    WechatPayAdapter rotated = adapter(WechatPlatformKeys.of(NEW_SERIAL, NEW_PLATFORM.getPublic()));
    assertThat(rotated.retrieve(ref(no)).certainty()).isEqualTo(ResultCertainty.PENDING);
  }

  @Test
  void aNotificationUnderAnUnknownSerialIsRefusedAndCounted() {
    h.sim.rotatePlatformKey(NEW_PLATFORM.getPrivate(), NEW_SERIAL);
    WechatPayAdapter both =
        adapter(
            WechatPlatformKeys.of(WechatHarness.PLATFORM_SERIAL, WechatHarness.PLATFORM.getPublic())
                .with(NEW_SERIAL, NEW_PLATFORM.getPublic()));
    both.create(payment(number("pay"), 100));
    WechatHarness.await(() -> !h.receiver.deliveries().isEmpty(), Duration.ofSeconds(3));
    Delivery d = h.receiver.deliveries().get(0);
    WechatPayAdapter oldOnly =
        adapter(
            WechatPlatformKeys.of(
                WechatHarness.PLATFORM_SERIAL, WechatHarness.PLATFORM.getPublic()));
    assertThatThrownBy(() -> oldOnly.parseWebhook(d.headers(), d.body()))
        .isInstanceOf(WebhookRejected.class)
        .satisfies(e -> assertThat(((WebhookRejected) e).code()).isEqualTo("unknown_serial"));
    assertThat(unknown).containsExactly(WechatHarness.MCHID + ":notification");
  }

  @Test
  void theNewKeyUnderTheOldSerialDoesNotVerify() {
    // The serial picks the key: a signature by another key under a known serial is refused.
    h.sim.rotatePlatformKey(NEW_PLATFORM.getPrivate(), WechatHarness.PLATFORM_SERIAL);
    PspOutcome outcome = h.adapter.create(payment(number("never"), 100));
    assertThat(outcome.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(outcome.errorCode()).isEqualTo("BAD_SIGNATURE");
  }

  private static KeyPair rsa() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
