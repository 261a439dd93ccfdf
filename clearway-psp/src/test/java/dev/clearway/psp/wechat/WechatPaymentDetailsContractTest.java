package dev.clearway.psp.wechat;

import static dev.clearway.psp.wechat.WechatHarness.number;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.ClientAction;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PaymentParty;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.psp.wechat.NotificationReceiver.Delivery;
import java.nio.charset.StandardCharsets;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the customer's client gets from a WeChat Pay create (a native code_url, JSAPI parameters
 * signed with the merchant key) and partner mode (sp_mchid + sub_mchid) against the simulator.
 */
class WechatPaymentDetailsContractTest {
  private static final String SUB_MCHID = "1900000777";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final WechatHarness h = WechatHarness.start();

  @AfterEach
  void stop() {
    h.close();
  }

  private static CreatePayment create(String no, String method, PaymentParty party) {
    return new CreatePayment(no, "PO-" + no, 100, "CNY", method, "Coffee", party);
  }

  @Test
  void aNativeOrderGivesItsCodeUrl() {
    PspOutcome out = h.adapter.create(create(number("never"), "wechat_native", PaymentParty.NONE));
    assertThat(out.certainty()).isEqualTo(ResultCertainty.PENDING);
    assertThat(out.customerActionPending()).isTrue();
    assertThat(out.clientAction().kind()).isEqualTo(ClientAction.Kind.WECHAT_NATIVE);
    assertThat(out.clientAction().field("code_url")).startsWith("weixin://wxpay/bizpayurl?pr=");
  }

  @Test
  void aJsapiOrderGivesParametersSignedWithTheMerchantKey() throws Exception {
    PspOutcome out =
        h.adapter.create(
            create(number("never"), "wechat_jsapi", new PaymentParty(null, "oUpF8uMuAJO_M2pxb1Q")));
    assertThat(out.certainty()).isEqualTo(ResultCertainty.PENDING);
    ClientAction action = out.clientAction();
    assertThat(action.kind()).isEqualTo(ClientAction.Kind.WECHAT_JSAPI);
    assertThat(action.field("appId")).isEqualTo(WechatHarness.APPID);
    assertThat(action.field("package")).isEqualTo("prepay_id=" + action.field("prepay_id"));
    assertThat(action.field("prepay_id")).startsWith("wx");
    assertThat(action.field("signType")).isEqualTo("RSA");
    assertThat(verifies(action, WechatHarness.MERCHANT.getPublic())).isTrue();
    assertThat(verifies(action, WechatHarness.STRANGER.getPublic())).isFalse();
    assertThat(action.fields().toString()).doesNotContain("PRIVATE");
  }

  @Test
  void aJsapiOrderWithoutAPayerNeverLeaves() {
    PspOutcome out = h.adapter.create(create(number("never"), "wechat_jsapi", PaymentParty.NONE));
    assertThat(out.certainty()).isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(out.errorCode()).isEqualTo("PAYER_REQUIRED");
  }

  @Test
  void partnerModeCreatesQueriesClosesAndNotifiesForTheSubMerchant() throws Exception {
    PaymentParty party = new PaymentParty(SUB_MCHID, "oSpOpenid123");
    String paid = number("pay");
    PspOutcome created = h.adapter.create(create(paid, "wechat_jsapi", party));
    assertThat(created.certainty()).as("%s", created).isEqualTo(ResultCertainty.PENDING);
    assertThat(created.clientAction().field("paySign")).isNotBlank();

    WechatHarness.await(() -> !h.receiver.deliveries().isEmpty(), Duration.ofSeconds(3));
    Delivery d = h.receiver.deliveries().get(0);
    WebhookNotice notice = h.adapter.parseWebhook(d.headers(), d.body());
    assertThat(notice.idempotencyKey()).isEqualTo(paid);
    assertThat(notice.payment().certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    JsonNode resource = decrypt(d.body());
    assertThat(resource.get("sp_mchid").asString()).isEqualTo(WechatHarness.MCHID);
    assertThat(resource.get("sub_mchid").asString()).isEqualTo(SUB_MCHID);
    assertThat(resource.get("sp_appid").asString()).isEqualTo(WechatHarness.APPID);
    assertThat(resource.has("mchid")).isFalse();

    AttemptRef mine = new AttemptRef(paid, "PO-" + paid, null, party);
    assertThat(h.adapter.retrieve(mine).certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    AttemptRef otherSub =
        new AttemptRef(paid, "PO-" + paid, null, new PaymentParty("1900000888", null));
    assertThat(h.adapter.retrieve(otherSub).certainty())
        .as("another sub-merchant's query finds nothing")
        .isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
    assertThat(h.adapter.retrieve(new AttemptRef(paid, "PO-" + paid, null)).certainty())
        .as("a direct query finds no partner order")
        .isEqualTo(ResultCertainty.NO_SIDE_EFFECT);

    String unpaid = number("never");
    h.adapter.create(create(unpaid, "wechat_native", party));
    PspOutcome closed = h.adapter.close(new AttemptRef(unpaid, "PO-" + unpaid, null, party));
    assertThat(closed.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
    assertThat(closed.errorCode()).isEqualTo("CLOSED");
  }

  private static boolean verifies(ClientAction a, java.security.PublicKey key) throws Exception {
    String message =
        a.field("appId")
            + "\n"
            + a.field("timeStamp")
            + "\n"
            + a.field("nonceStr")
            + "\n"
            + a.field("package")
            + "\n";
    Signature s = Signature.getInstance("SHA256withRSA");
    s.initVerify(key);
    s.update(message.getBytes(StandardCharsets.UTF_8));
    return s.verify(Base64.getDecoder().decode(a.field("paySign")));
  }

  private static JsonNode decrypt(byte[] body) throws Exception {
    JsonNode r = JSON.readTree(body).get("resource");
    Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
    c.init(
        Cipher.DECRYPT_MODE,
        new SecretKeySpec(WechatHarness.API_V3_KEY, "AES"),
        new GCMParameterSpec(128, r.get("nonce").asString().getBytes(StandardCharsets.UTF_8)));
    c.updateAAD(r.get("associated_data").asString().getBytes(StandardCharsets.UTF_8));
    return JSON.readTree(c.doFinal(Base64.getDecoder().decode(r.get("ciphertext").asString())));
  }
}
