package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.ChannelAccounts;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.psp.wechat.WechatCredentials;
import dev.clearway.psp.wechat.WechatPayAdapter;
import dev.clearway.psp.wechat.WechatPayConfig;
import dev.clearway.psp.wechat.WechatPlatformKeys;
import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.wechat.Payer;
import dev.clearway.sim.psp.wechat.PayerChoice;
import dev.clearway.sim.psp.wechat.RefundBehaviour;
import dev.clearway.sim.psp.wechat.WechatSimKeys;
import dev.clearway.sim.psp.wechat.WechatSimOptions;
import dev.clearway.sim.psp.wechat.WechatSimServer;
import dev.clearway.store.testing.TestDatabase;
import java.net.URI;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A merchant's channel configuration given as settings ({@code clearway.merchant-channels}) is
 * written at start, and a payment of that merchant routes through the platform's WeChat Pay
 * service-provider account with the configured sub_mchid, by the methods enabled there only.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class MerchantChannelSettingsHttpTest {
  private static final String MERCHANT = "shop-cfg";
  private static final String MERCHANT_API_KEY = "mk_test_shopcfg_5e7a9c1b3d";
  private static final String SP_MCHID = "1900000401";
  private static final String SUB_MCHID = "1900000888";
  private static final long ACCOUNT = 41;
  private static final byte[] API_V3_KEY = "abcdef0123456789ABCDEF0123456789".getBytes();
  private static final KeyPair MERCHANT_KEY = rsa();
  private static final KeyPair PLATFORM = rsa();

  private static WechatSimServer partner;
  private static RunningApi api;

  @BeforeAll
  static void start() {
    RunningApi.execute("DELETE FROM merchant_channel WHERE merchant_id = '" + MERCHANT + "'");
    partner =
        WechatSimServer.start(
            WechatSimOptions.defaults(
                    new WechatSimKeys(
                        SP_MCHID,
                        MERCHANT_KEY.getPublic(),
                        PLATFORM.getPrivate(),
                        "PLATFORM-CFG",
                        API_V3_KEY))
                .withPayer(PayerChoice.always(Payer.PAYS))
                .withPayerDelay(Duration.ofMillis(2_000))
                .withRefunds(RefundBehaviour.immediateSuccess())
                .withNotifyScheduleScale(0.001),
            PspFaults.none());
    WechatPayAdapter adapter =
        new WechatPayAdapter(
            WechatPayConfig.of(
                    partner.baseUrl(),
                    new WechatCredentials(
                        SP_MCHID,
                        "wx7777777777777777",
                        MERCHANT_KEY.getPrivate(),
                        "MERCHANT-SERIAL",
                        WechatPlatformKeys.of("PLATFORM-CFG", PLATFORM.getPublic()),
                        API_V3_KEY),
                    URI.create("http://127.0.0.1:9/unused"),
                    Clock.systemUTC())
                .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(3)));
    Map<String, Object> beans = new LinkedHashMap<>();
    beans.put(
        "channelAccounts",
        new ChannelAccounts(
            List.of(
                new ChannelAccount(
                    ACCOUNT,
                    "wechat",
                    SP_MCHID,
                    "psp:wechat-partner-cfg",
                    Set.of("wechat_native", "wechat_jsapi"),
                    1,
                    true))));
    beans.put("adapterRegistry", (AdapterRegistry) id -> adapter);
    beans.put("paymentMethods", PaymentMethods.fixed("wechat_native", "wechat_native"));
    String entry = "clearway.merchant-channels[0].";
    api =
        RunningApi.startChannels(
            beans,
            "clearway.keys.merchant=" + MERCHANT + "=" + MERCHANT_API_KEY,
            entry + "merchant=" + MERCHANT,
            entry + "account=" + ACCOUNT,
            entry + "sub-merchant=" + SUB_MCHID,
            entry + "methods=wechat_native",
            entry + "max-amount=5000");
    partner.webhookTarget(URI.create(api.baseUrl() + "/v1/channels/" + ACCOUNT + "/webhooks"));
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    partner.close();
    // Later test classes share the database: the merchant's configuration goes with this one.
    RunningApi.execute("DELETE FROM merchant_channel WHERE merchant_id = '" + MERCHANT + "'");
  }

  private static Answer create(String bizKey, long amount, String method) {
    String body =
        "{\"userId\":77,\"scene\":\"checkout\",\"bizKey\":\""
            + bizKey
            + "\",\"amount\":"
            + amount
            + ",\"currency\":\"CNY\",\"bizDeadline\":\""
            + Instant.now().plusSeconds(3_600)
            + "\",\"paymentMethod\":\""
            + method
            + "\""
            + ("wechat_jsapi".equals(method) ? ",\"payer\":\"oPayer\"" : "")
            + "}";
    return api.call("POST", "/v1/payments")
        .bearer(MERCHANT_API_KEY)
        .contentType("application/json")
        .idempotencyKey("cfg-" + bizKey)
        .body(body)
        .send();
  }

  @Test
  void aConfiguredMerchantPaysThroughTheServiceProviderWithItsSubMerchant() throws Exception {
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM merchant_channel WHERE merchant_id = '"
                    + MERCHANT
                    + "' AND channel_account_id = "
                    + ACCOUNT
                    + " AND sub_merchant = '"
                    + SUB_MCHID
                    + "' AND payment_methods = 'wechat_native' AND max_amount = 5000"))
        .isEqualTo(1);

    Answer created = create("cfg-1", 300, "wechat_native");
    assertThat(created.status()).as("%s", created).isEqualTo(201);
    // The customer pays the QR code; WeChat Pay notifies for the sub-merchant and the flow ends.
    Answer paid =
        api.awaitStatusAs(
            MERCHANT_API_KEY, created.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(30));
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM payment_attempt WHERE channel_account_id = "
                    + ACCOUNT
                    + " AND sub_merchant = '"
                    + SUB_MCHID
                    + "' AND status = 'SUCCEEDED' AND trade_order_no = '"
                    + paid.text("tradeOrderNo")
                    + "'"))
        .isEqualTo(1);

    // Only what the configuration enables, within its limits.
    Answer jsapi = create("cfg-2", 300, "wechat_jsapi");
    assertThat(jsapi.status()).as("%s", jsapi).isEqualTo(422);
    assertThat(jsapi.code()).isEqualTo("payment_method_not_enabled");
    Answer tooMuch = create("cfg-3", 6_000, "wechat_native");
    assertThat(tooMuch.code()).isEqualTo("amount_out_of_limits");
  }

  private static KeyPair rsa() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
