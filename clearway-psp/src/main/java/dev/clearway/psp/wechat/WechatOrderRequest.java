package dev.clearway.psp.wechat;

import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PaymentParty;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The path and body of one WeChat Pay create: native or JSAPI (method {@code wechat_jsapi}, which
 * needs the payer's openid), direct ({@code /v3/pay/transactions/*}: {@code appid}, {@code mchid})
 * or partner mode when the attempt names a sub-merchant ({@code /v3/pay/partner/transactions/*}:
 * the account is the service provider, {@code sp_appid}, {@code sp_mchid}, {@code sub_mchid}; the
 * JSAPI payer is {@code sp_openid}, the openid under the service provider's app).
 */
record WechatOrderRequest(String path, Map<String, Object> body, boolean jsapi) {

  /** The payment method that makes a JSAPI order; any other is a native (QR code) order. */
  static final String JSAPI_METHOD = "wechat_jsapi";

  static WechatOrderRequest of(
      CreatePayment request, WechatCredentials credentials, String notifyUrl, String description) {
    PaymentParty party = request.party();
    boolean jsapi = JSAPI_METHOD.equals(request.paymentMethod());
    boolean partner = party.partner();
    Map<String, Object> amount = new LinkedHashMap<>();
    amount.put("total", request.amount());
    amount.put("currency", request.currency());
    Map<String, Object> body = new LinkedHashMap<>();
    if (partner) {
      body.put("sp_appid", credentials.appid());
      body.put("sp_mchid", credentials.mchid());
      body.put("sub_mchid", party.subMerchant());
    } else {
      body.put("appid", credentials.appid());
      body.put("mchid", credentials.mchid());
    }
    body.put("description", description);
    body.put("out_trade_no", request.idempotencyKey());
    body.put("attach", request.merchantReference());
    body.put("notify_url", notifyUrl);
    body.put("amount", amount);
    if (jsapi) {
      body.put("payer", Map.of(partner ? "sp_openid" : "openid", party.payer()));
    }
    String path =
        "/v3/pay/" + (partner ? "partner/" : "") + "transactions/" + (jsapi ? "jsapi" : "native");
    return new WechatOrderRequest(path, body, jsapi);
  }
}
