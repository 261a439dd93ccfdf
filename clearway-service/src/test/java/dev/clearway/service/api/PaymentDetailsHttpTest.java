package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.ChannelAccounts;
import dev.clearway.boot.metrics.MicrometerWechatKeyEvents;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.psp.stripe.StripeAdapter;
import dev.clearway.psp.stripe.StripeConfig;
import dev.clearway.psp.wechat.WechatCredentials;
import dev.clearway.psp.wechat.WechatKeyEvents;
import dev.clearway.psp.wechat.WechatPayAdapter;
import dev.clearway.psp.wechat.WechatPayConfig;
import dev.clearway.psp.wechat.WechatPlatformKeys;
import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import dev.clearway.sim.psp.wechat.Payer;
import dev.clearway.sim.psp.wechat.PayerChoice;
import dev.clearway.sim.psp.wechat.RefundBehaviour;
import dev.clearway.sim.psp.wechat.WechatSimKeys;
import dev.clearway.sim.psp.wechat.WechatSimOptions;
import dev.clearway.sim.psp.wechat.WechatSimServer;
import dev.clearway.store.testing.TestDatabase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Payment details for the client over real HTTP, the engine paying through the channel layer and
 * real simulators: a Stripe-style account (card), a direct WeChat Pay merchant and a WeChat Pay
 * service provider whose sub-merchant the test merchant is. Each method's answer carries what the
 * client needs; refused methods and amounts write nothing; partner mode creates, queries and is
 * notified for the merchant's sub_mchid; rotated platform keys verify, an unknown serial is refused
 * and counted.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class PaymentDetailsHttpTest {
  private static final String MERCHANT = "default";
  private static final String STRIPE_KEY = "sk_test_details";
  private static final String STRIPE_WHSEC = "whsec_details";
  private static final String APPID = "wx8888888888888888";
  private static final String DIRECT_MCHID = "1900000201";
  private static final String SP_MCHID = "1900000301";
  private static final String SUB_MCHID = "1900000777";
  private static final byte[] API_V3_KEY = "0123456789abcdef0123456789ABCDEF".getBytes();
  private static final KeyPair MERCHANT_KEY = rsa();
  private static final KeyPair PLATFORM_OLD = rsa();
  private static final KeyPair PLATFORM_NEW = rsa();
  private static final KeyPair PLATFORM_UNKNOWN = rsa();
  private static final AtomicInteger KEYS = new AtomicInteger();
  private static final AtomicReference<MeterRegistry> METERS = new AtomicReference<>();

  private static StripeSimServer stripe;
  private static WechatSimServer direct;
  private static WechatSimServer partner;
  private static WechatPayAdapter partnerAdapter;
  private static RunningApi api;

  @BeforeAll
  static void start() {
    stripe =
        StripeSimServer.start(
            StripeSimOptions.defaults(STRIPE_KEY, STRIPE_WHSEC).withTiming(StripeSimTiming.fast()));
    direct = wechat(DIRECT_MCHID, PayerChoice.always(Payer.NEVER));
    partner = wechat(SP_MCHID, PayerChoice.always(Payer.PAYS));
    WechatKeyEvents counted =
        (mchid, kind) -> {
          MeterRegistry registry = METERS.get();
          if (registry != null) {
            new MicrometerWechatKeyEvents(registry).unknownSerial(mchid, kind);
          }
        };
    WechatPlatformKeys rotating =
        WechatPlatformKeys.of("PLATFORM-OLD", PLATFORM_OLD.getPublic())
            .with("PLATFORM-NEW", PLATFORM_NEW.getPublic());
    partnerAdapter = wechatAdapter(partner, SP_MCHID, rotating, counted);
    Map<Long, PspAdapter> adapters =
        Map.of(
            1L,
            new StripeAdapter(StripeConfig.of(stripe.baseUrl(), STRIPE_KEY, STRIPE_WHSEC)),
            2L,
            wechatAdapter(direct, DIRECT_MCHID, rotating, counted),
            3L,
            partnerAdapter);
    Map<String, Object> beans = new LinkedHashMap<>();
    beans.put(
        "channelAccounts",
        new ChannelAccounts(
            List.of(
                new ChannelAccount(
                    1, "stripe", "acct_details", "psp:stripe", Set.of("card"), 1, true),
                new ChannelAccount(
                    2,
                    "wechat",
                    DIRECT_MCHID,
                    "psp:wechat-direct",
                    Set.of("wechat_native", "wechat_jsapi"),
                    1,
                    true),
                new ChannelAccount(
                    3,
                    "wechat",
                    SP_MCHID,
                    "psp:wechat-partner",
                    Set.of("wechat_native", "wechat_jsapi"),
                    5,
                    true))));
    beans.put(
        "adapterRegistry",
        (AdapterRegistry)
            id -> {
              PspAdapter a = adapters.get(id);
              if (a == null) {
                throw new IllegalArgumentException("no adapter for " + id);
              }
              return a;
            });
    beans.put("paymentMethods", PaymentMethods.fixed("card", "pm_card_visa"));
    api = RunningApi.startChannels(beans);
    METERS.set(api.bean(MeterRegistry.class));
    direct.webhookTarget(URI.create(api.baseUrl() + "/v1/channels/2/webhooks"));
    partner.webhookTarget(URI.create(api.baseUrl() + "/v1/channels/3/webhooks"));
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    stripe.close();
    direct.close();
    partner.close();
  }

  @BeforeEach
  void clean() {
    RunningApi.resetDatabase();
    TestDatabase.get()
        .truncate(
            "payment_attempt_action",
            "payment_method_choice",
            "merchant_channel",
            "payment_attempt_history",
            "provider_evidence",
            "recovery_task",
            "attempt_compensation",
            "channel_refund",
            "channel_webhook_inbox",
            "payment_attempt",
            "payment_order");
    direct.rotatePlatformKey(PLATFORM_OLD.getPrivate(), "PLATFORM-OLD");
    partner.rotatePlatformKey(PLATFORM_OLD.getPrivate(), "PLATFORM-OLD");
  }

  private static Answer create(String bizKey, long amount, String currency, String methodJson) {
    String body =
        "{\"userId\":42,\"scene\":\"checkout\",\"bizKey\":\""
            + bizKey
            + "\",\"amount\":"
            + amount
            + ",\"currency\":\""
            + currency
            + "\",\"bizDeadline\":\""
            + Instant.now().plusSeconds(3_600)
            + "\""
            + methodJson
            + "}";
    return api.post("/v1/payments")
        .idempotencyKey("details-" + KEYS.incrementAndGet())
        .body(body)
        .send();
  }

  /**
   * The created flow once it waits for the customer: the create answers within its synchronous
   * budget, PROCESSING when the PSP's answer came later (the client polls).
   */
  private static Answer requiresAction(Answer created) throws InterruptedException {
    assertThat(created.status()).as("%s", created).isEqualTo(201);
    assertThat(created.clientStatus()).isIn("PROCESSING", "REQUIRES_ACTION");
    Answer a = api.awaitStatus(created.flowId(), "REQUIRES_ACTION", Duration.ofSeconds(10));
    assertThat(a.clientStatus()).as("%s", a).isEqualTo("REQUIRES_ACTION");
    return a;
  }

  @Test
  void aWechatNativePaymentAnswersItsQrCodeAndRequiresAction() throws Exception {
    Answer a =
        requiresAction(create("native-1", 100, "CNY", ",\"paymentMethod\":\"wechat_native\""));
    JsonNode next = a.json().get("nextAction");
    assertThat(next.get("type").asString()).isEqualTo("WECHAT_NATIVE");
    assertThat(next.get("fields").get("code_url").asString()).startsWith("weixin://wxpay/");
    assertThat(a.json().get("pollAfterMs").asLong()).isPositive();
    Answer again = api.get("/v1/payment-flows/" + a.flowId()).send();
    assertThat(again.clientStatus()).isEqualTo("REQUIRES_ACTION");
    assertThat(again.json().get("nextAction").get("fields").get("code_url").asString())
        .isEqualTo(next.get("fields").get("code_url").asString());
  }

  @Test
  void aJsapiPaymentAnswersParametersSignedWithTheMerchantKey() throws Exception {
    Answer a =
        requiresAction(
            create(
                "jsapi-1",
                100,
                "CNY",
                ",\"paymentMethod\":\"wechat_jsapi\",\"payer\":\"oUpF8uMuAJO_M2pxb1Q9zNjWeS6o\""));
    JsonNode f = a.json().get("nextAction").get("fields");
    assertThat(a.json().get("nextAction").get("type").asString()).isEqualTo("WECHAT_JSAPI");
    assertThat(f.get("appId").asString()).isEqualTo(APPID);
    assertThat(f.get("package").asString()).isEqualTo("prepay_id=" + f.get("prepay_id").asString());
    assertThat(f.get("signType").asString()).isEqualTo("RSA");
    assertThat(paySignVerifies(f, MERCHANT_KEY.getPublic())).isTrue();
    assertThat(paySignVerifies(f, PLATFORM_OLD.getPublic())).isFalse();
    assertThat(a.body()).doesNotContain("PRIVATE").doesNotContain("privateKey");

    Answer noPayer = create("jsapi-2", 100, "CNY", ",\"paymentMethod\":\"wechat_jsapi\"");
    assertThat(noPayer.status()).isEqualTo(400);
    assertThat(noPayer.code()).isEqualTo("payer_required");
  }

  @Test
  void aCardPaymentWithThreeDSecureAnswersItsClientSecret() throws Exception {
    Answer a =
        requiresAction(
            create(
                "card-1",
                1_000,
                "EUR",
                ",\"paymentMethod\":\"card\",\"paymentToken\":\"pm_card_threeDSecureRequired\""));
    JsonNode next = a.json().get("nextAction");
    assertThat(next.get("type").asString()).isEqualTo("STRIPE_NEXT_ACTION");
    assertThat(next.get("fields").get("client_secret").asString()).contains("_secret_");
    assertThat(next.get("fields").get("next_action").asString()).isEqualTo("redirect_to_url");
  }

  @Test
  void aPlainCardPaymentNeedsNoClientAction() throws Exception {
    Answer a =
        create(
            "card-2",
            1_000,
            "EUR",
            ",\"paymentMethod\":\"card\",\"paymentToken\":\"pm_card_visa\"");
    assertThat(a.status()).as("%s", a).isEqualTo(201);
    Answer done = api.awaitStatus(a.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(20));
    assertThat(done.clientStatus()).isEqualTo("BIZ_SUCCESS");
    assertThat(done.json().get("nextAction").isNull()).isTrue();
  }

  @Test
  void aMethodNoAccountCarriesIsRefusedAndNothingIsWritten() {
    Answer a = create("wallet-1", 100, "CNY", ",\"paymentMethod\":\"wallet\"");
    assertThat(a.status()).as("%s", a).isEqualTo(422);
    assertThat(a.code()).isEqualTo("payment_method_not_enabled");
    assertNothingWritten("wallet-1");

    Answer unknown = create("unknown-1", 100, "CNY", ",\"paymentMethod\":\"bitcoin\"");
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.code()).isEqualTo("invalid_payment_method");
    assertNothingWritten("unknown-1");
  }

  @Test
  void partnerModePaysThroughTheServiceProviderForTheMerchantsSubMerchant() throws Exception {
    RunningApi.execute(
        "INSERT INTO merchant_channel (merchant_id, channel_account_id, sub_merchant,"
            + " payment_methods, min_amount, max_amount, enabled) VALUES ('"
            + MERCHANT
            + "', 3, '"
            + SUB_MCHID
            + "', 'wechat_native', 50, 5000, TRUE)");

    Answer notEnabled =
        create("sub-1", 100, "CNY", ",\"paymentMethod\":\"wechat_jsapi\",\"payer\":\"oX\"");
    assertThat(notEnabled.status()).as("%s", notEnabled).isEqualTo(422);
    assertThat(notEnabled.code()).isEqualTo("payment_method_not_enabled");
    assertNothingWritten("sub-1");
    Answer tooMuch = create("sub-2", 6_000, "CNY", ",\"paymentMethod\":\"wechat_native\"");
    assertThat(tooMuch.status()).isEqualTo(422);
    assertThat(tooMuch.code()).isEqualTo("amount_out_of_limits");
    assertNothingWritten("sub-2");
    Answer tooLittle = create("sub-3", 10, "CNY", ",\"paymentMethod\":\"wechat_native\"");
    assertThat(tooLittle.code()).isEqualTo("amount_out_of_limits");

    Answer a = requiresAction(create("sub-4", 100, "CNY", ",\"paymentMethod\":\"wechat_native\""));
    assertThat(a.json().get("nextAction").get("fields").get("code_url").asString())
        .startsWith("weixin://");
    String tradeOrderNo = a.text("tradeOrderNo");
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM payment_attempt WHERE channel_account_id = 3"
                    + " AND sub_merchant = '"
                    + SUB_MCHID
                    + "' AND trade_order_no = '"
                    + tradeOrderNo
                    + "'"))
        .isEqualTo(1);

    // The customer pays; WeChat Pay notifies the service provider's notify_url with sp_mchid and
    // sub_mchid, and the flow completes.
    Answer done = api.awaitStatus(a.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(20));
    assertThat(done.clientStatus()).isEqualTo("BIZ_SUCCESS");
    assertThat(done.json().get("nextAction").isNull()).isTrue();
    // The flow may finish from a query before the notification lands: wait for its delivery.
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (partner.notificationsDelivered() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(partner.notificationsDelivered()).isPositive();
  }

  @Test
  void rotatedPlatformKeysBothVerifyAndAnUnknownSerialIsRefusedAndCounted() throws Exception {
    direct.rotatePlatformKey(PLATFORM_NEW.getPrivate(), "PLATFORM-NEW");
    requiresAction(create("rot-1", 100, "CNY", ",\"paymentMethod\":\"wechat_native\""));

    double before = unknownSerials("response");
    direct.rotatePlatformKey(PLATFORM_UNKNOWN.getPrivate(), "PLATFORM-UNKNOWN");
    Answer unknown = create("rot-2", 100, "CNY", ",\"paymentMethod\":\"wechat_native\"");
    assertThat(unknown.status()).as("%s", unknown).isEqualTo(201);
    assertThat(unknown.clientStatus())
        .as("the create's result is unknown: not trusted, queried again")
        .isEqualTo("PROCESSING");
    awaitCount("SELECT count(*) FROM payment_attempt WHERE error_code = 'UNKNOWN_PLATFORM_SERIAL'");
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM payment_attempt WHERE status = 'UNKNOWN'"
                    + " AND error_code = 'UNKNOWN_PLATFORM_SERIAL'"))
        .isEqualTo(1);
    assertThat(unknownSerials("response")).isGreaterThan(before);

    double notificationsBefore = unknownSerials("notification");
    Answer refused =
        api.call("POST", "/v1/channels/2/webhooks")
            .contentType("application/json")
            .header("Wechatpay-Timestamp", Long.toString(Instant.now().getEpochSecond()))
            .header("Wechatpay-Nonce", "n0nce")
            .header("Wechatpay-Signature", "c2lnbmF0dXJl")
            .header("Wechatpay-Serial", "PLATFORM-UNKNOWN")
            .body("{\"id\":\"evt-1\",\"event_type\":\"TRANSACTION.SUCCESS\",\"resource\":{}}")
            .send();
    assertThat(refused.status()).as("%s", refused).isEqualTo(400);
    assertThat(refused.code()).isEqualTo("unknown_serial");
    assertThat(unknownSerials("notification")).isEqualTo(notificationsBefore + 1);
    assertThat(RunningApi.count("SELECT count(*) FROM channel_webhook_inbox")).isZero();
  }

  private static void awaitCount(String sql) throws InterruptedException {
    Instant giveUp = Instant.now().plusSeconds(10);
    while (RunningApi.count(sql) == 0 && Instant.now().isBefore(giveUp)) {
      Thread.sleep(25);
    }
  }

  private static double unknownSerials(String kind) {
    Counter c =
        METERS
            .get()
            .find("clearway.wechat.unknown.serial")
            .tag("mchid", DIRECT_MCHID)
            .tag("kind", kind)
            .counter();
    return c == null ? 0 : c.count();
  }

  private static void assertNothingWritten(String bizKey) {
    assertThat(RunningApi.count("SELECT count(*) FROM pay_flow WHERE biz_key = '" + bizKey + "'"))
        .isZero();
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM payment_method_choice WHERE biz_key = '" + bizKey + "'"))
        .isZero();
    assertThat(RunningApi.count("SELECT count(*) FROM idempotency_key")).isZero();
  }

  private static boolean paySignVerifies(JsonNode f, PublicKey key) throws Exception {
    String message =
        f.get("appId").asString()
            + "\n"
            + f.get("timeStamp").asString()
            + "\n"
            + f.get("nonceStr").asString()
            + "\n"
            + f.get("package").asString()
            + "\n";
    Signature s = Signature.getInstance("SHA256withRSA");
    s.initVerify(key);
    s.update(message.getBytes(StandardCharsets.UTF_8));
    return s.verify(Base64.getDecoder().decode(f.get("paySign").asString()));
  }

  private static WechatSimServer wechat(String mchid, PayerChoice payer) {
    WechatSimKeys keys =
        new WechatSimKeys(
            mchid, MERCHANT_KEY.getPublic(), PLATFORM_OLD.getPrivate(), "PLATFORM-OLD", API_V3_KEY);
    return WechatSimServer.start(
        WechatSimOptions.defaults(keys)
            .withPayer(payer)
            .withPayerDelay(Duration.ofMillis(3_000))
            .withRefunds(RefundBehaviour.immediateSuccess())
            .withNotifyScheduleScale(0.001),
        PspFaults.none());
  }

  private static WechatPayAdapter wechatAdapter(
      WechatSimServer sim, String mchid, WechatPlatformKeys keys, WechatKeyEvents events) {
    WechatCredentials credentials =
        new WechatCredentials(
            mchid, APPID, MERCHANT_KEY.getPrivate(), "MERCHANT-SERIAL", keys, API_V3_KEY);
    return new WechatPayAdapter(
        WechatPayConfig.of(
                sim.baseUrl(),
                credentials,
                URI.create("http://127.0.0.1:9/unused"),
                Clock.systemUTC())
            .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(3)),
        events);
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
