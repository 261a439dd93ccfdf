package dev.clearway.sim.psp.wechat;

import java.util.Map;

/**
 * Parses and validates request bodies and parameters; every refusal is a 400 {@code PARAM_ERROR}
 * raised before anything executes. Messages name the field, never its value.
 */
final class WechatRequests {
  private final String mchid;

  WechatRequests(String mchid) {
    this.mchid = mchid;
  }

  NativeOrder nativeOrder(String body) throws WechatApiError {
    Map<String, Object> json = object(body);
    requireMchid(json.get("mchid"));
    Map<String, Object> amount = nested(json, "amount");
    Object currency = amount.getOrDefault("currency", "CNY");
    if (!(currency instanceof String c) || c.length() != 3) {
      throw param("amount.currency");
    }
    Object attach = json.get("attach");
    if (attach != null && !(attach instanceof String)) {
      throw param("attach");
    }
    return new NativeOrder(
        text(json, "appid"),
        text(json, "description"),
        merchantNo(json.get("out_trade_no")),
        text(json, "notify_url"),
        new NativeOrder.Amount(positive(amount, "total"), c),
        (String) attach);
  }

  RefundRequest refund(String body) throws WechatApiError {
    Map<String, Object> json = object(body);
    Map<String, Object> amount = nested(json, "amount");
    Object currency = amount.getOrDefault("currency", "CNY");
    if (!(currency instanceof String c) || c.length() != 3) {
      throw param("amount.currency");
    }
    return new RefundRequest(
        merchantNo(json.get("out_trade_no")),
        merchantNo(json.get("out_refund_no")),
        positive(amount, "refund"),
        positive(amount, "total"),
        c);
  }

  Map<String, Object> object(String body) throws WechatApiError {
    try {
      return WechatJson.parseObject(body);
    } catch (IllegalArgumentException e) {
      throw new WechatApiError(400, WechatProtocol.PARAM_ERROR, "body is not a JSON object");
    }
  }

  void requireMchid(Object value) throws WechatApiError {
    if (!mchid.equals(value)) {
      throw param("mchid");
    }
  }

  void requireMchidQuery(String query) throws WechatApiError {
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.equals("mchid=" + mchid)) {
          return;
        }
      }
    }
    throw param("mchid");
  }

  String merchantNo(Object value) throws WechatApiError {
    if (!(value instanceof String s) || !WechatProtocol.isMerchantNo(s)) {
      throw new WechatApiError(
          400, WechatProtocol.PARAM_ERROR, "merchant number must be 6-32 of [A-Za-z0-9_*|-]");
    }
    return s;
  }

  private static Map<String, Object> nested(Map<String, Object> json, String field)
      throws WechatApiError {
    if (!(json.get(field) instanceof Map<?, ?> m)) {
      throw param(field);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> out = (Map<String, Object>) m;
    return out;
  }

  private static String text(Map<String, Object> json, String field) throws WechatApiError {
    if (!(json.get(field) instanceof String s) || s.isEmpty()) {
      throw param(field);
    }
    return s;
  }

  private static long positive(Map<String, Object> json, String field) throws WechatApiError {
    if (!(json.get(field) instanceof Long n) || n <= 0) {
      throw param(field);
    }
    return n;
  }

  private static WechatApiError param(String field) {
    return new WechatApiError(400, WechatProtocol.PARAM_ERROR, "invalid " + field);
  }
}
