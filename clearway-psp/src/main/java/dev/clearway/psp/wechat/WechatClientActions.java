package dev.clearway.psp.wechat;

import dev.clearway.core.channel.spi.ClientAction;
import java.security.PrivateKey;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the customer's client needs after a WeChat Pay create: a native order's {@code code_url}
 * (shown as a QR code), or the parameters a JSAPI payment is invoked with ({@code
 * WeixinJSBridge.invoke('getBrandWCPayRequest', ...)} / {@code wx.requestPayment}): {@code appId},
 * {@code timeStamp}, {@code nonceStr}, {@code package = prepay_id=...}, {@code signType = RSA} and
 * {@code paySign}, an RSA-SHA256 signature over {@code "appId\ntimeStamp\nnonceStr\npackage\n"}
 * with the merchant's private key. The key is used here, on the server, and goes nowhere else.
 */
final class WechatClientActions {

  private WechatClientActions() {}

  static ClientAction nativeQr(String codeUrl) {
    return new ClientAction(ClientAction.Kind.WECHAT_NATIVE, Map.of("code_url", codeUrl));
  }

  static ClientAction jsapi(String appId, String prepayId, PrivateKey merchantKey, Clock clock) {
    String timeStamp = Long.toString(clock.instant().getEpochSecond());
    String nonceStr = WechatSignatures.nonce(32);
    String pkg = "prepay_id=" + prepayId;
    String message = appId + "\n" + timeStamp + "\n" + nonceStr + "\n" + pkg + "\n";
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("prepay_id", prepayId);
    fields.put("appId", appId);
    fields.put("timeStamp", timeStamp);
    fields.put("nonceStr", nonceStr);
    fields.put("package", pkg);
    fields.put("signType", "RSA");
    fields.put("paySign", WechatSignatures.sign(merchantKey, message));
    return new ClientAction(ClientAction.Kind.WECHAT_JSAPI, fields);
  }
}
