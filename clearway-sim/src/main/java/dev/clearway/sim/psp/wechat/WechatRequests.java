package dev.clearway.sim.psp.wechat;

import dev.clearway.sim.json.StrictJson;
import java.util.OptionalLong;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Parses and validates request bodies and parameters; every refusal is a 400 {@code PARAM_ERROR}
 * raised before anything executes. Messages name the field, never its value. A body that is not one
 * JSON object (a duplicated field included) is refused whole; unknown fields are ignored. An amount
 * is an integral JSON number: {@code "100"}, {@code 100.0} and {@code 1e2} are refused.
 */
final class WechatRequests {
  private final String mchid;

  WechatRequests(String mchid) {
    this.mchid = mchid;
  }

  NativeOrder nativeOrder(byte[] body) throws WechatApiError {
    ObjectNode json = object(body);
    requireMchid(json.get("mchid"));
    JsonNode amount = nested(json, "amount");
    String currency = currency(amount);
    JsonNode attach = json.get("attach");
    if (attach != null && !attach.isNull() && !attach.isString()) {
      throw param("attach");
    }
    return new NativeOrder(
        text(json, "appid"),
        text(json, "description"),
        merchantNo(json.get("out_trade_no")),
        text(json, "notify_url"),
        new NativeOrder.Amount(positive(amount, "total"), currency),
        StrictJson.text(attach));
  }

  /**
   * A create by {@code path}: native or JSAPI, direct ({@code mchid}, {@code appid}) or partner
   * mode ({@code sp_mchid} is this simulated service provider, {@code sp_appid}, {@code sub_mchid},
   * optional {@code sub_appid}). A JSAPI order names its payer: {@code payer.openid} (direct),
   * {@code payer.sp_openid} or {@code payer.sub_openid} (partner).
   */
  NativeOrder order(String path, byte[] body) throws WechatApiError {
    boolean partner =
        path.equals(WechatProtocol.PARTNER_NATIVE) || path.equals(WechatProtocol.PARTNER_JSAPI);
    boolean jsapi = path.equals(WechatProtocol.JSAPI) || path.equals(WechatProtocol.PARTNER_JSAPI);
    if (!partner && !jsapi) {
      return nativeOrder(body);
    }
    ObjectNode json = object(body);
    requireMchid(json.get(partner ? "sp_mchid" : "mchid"));
    String subMchid = partner ? merchantId(json.get("sub_mchid")) : null;
    String subAppid = partner ? StrictJson.text(json.get("sub_appid")) : null;
    String openid = jsapi ? openid(json, partner) : null;
    JsonNode amount = nested(json, "amount");
    String currency = currency(amount);
    JsonNode attach = json.get("attach");
    if (attach != null && !attach.isNull() && !attach.isString()) {
      throw param("attach");
    }
    return new NativeOrder(
        text(json, partner ? "sp_appid" : "appid"),
        text(json, "description"),
        merchantNo(json.get("out_trade_no")),
        text(json, "notify_url"),
        new NativeOrder.Amount(positive(amount, "total"), currency),
        StrictJson.text(attach),
        new NativeOrder.Party(jsapi ? "JSAPI" : "NATIVE", subMchid, subAppid, openid));
  }

  private static String openid(ObjectNode json, boolean partner) throws WechatApiError {
    JsonNode payer = nested(json, "payer");
    String id =
        partner
            ? firstText(payer.get("sub_openid"), payer.get("sp_openid"))
            : StrictJson.text(payer.get("openid"));
    if (id == null || id.isEmpty() || id.length() > 128) {
      throw param("payer.openid");
    }
    return id;
  }

  private static String firstText(JsonNode a, JsonNode b) {
    String s = StrictJson.text(a);
    return s != null ? s : StrictJson.text(b);
  }

  /** A sub-merchant id: 8 to 32 digits. */
  String merchantId(JsonNode value) throws WechatApiError {
    String s = StrictJson.text(value);
    if (s == null || !s.matches("[0-9]{8,32}")) {
      throw param("sub_mchid");
    }
    return s;
  }

  /** The {@code sub_mchid} of a partner query, which {@code sp_mchid} must accompany. */
  String subMchidQuery(String query) throws WechatApiError {
    boolean sp = false;
    String sub = null;
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.equals("sp_mchid=" + mchid)) {
          sp = true;
        } else if (pair.startsWith("sub_mchid=")) {
          sub = pair.substring("sub_mchid=".length());
        }
      }
    }
    if (!sp) {
      throw param("sp_mchid");
    }
    if (sub == null || !sub.matches("[0-9]{8,32}")) {
      throw param("sub_mchid");
    }
    return sub;
  }

  RefundRequest refund(byte[] body) throws WechatApiError {
    ObjectNode json = object(body);
    JsonNode amount = nested(json, "amount");
    String currency = currency(amount);
    return new RefundRequest(
        merchantNo(json.get("out_trade_no")),
        merchantNo(json.get("out_refund_no")),
        positive(amount, "refund"),
        positive(amount, "total"),
        currency);
  }

  ObjectNode object(byte[] body) throws WechatApiError {
    try {
      return StrictJson.readObject(body);
    } catch (StrictJson.MalformedJsonException e) {
      throw new WechatApiError(400, WechatProtocol.PARAM_ERROR, "body is not a JSON object");
    }
  }

  void requireMchid(JsonNode value) throws WechatApiError {
    if (!mchid.equals(StrictJson.text(value))) {
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

  /** The {@code bill_date} parameter, a calendar day {@code YYYY-MM-DD}. */
  String billDate(String query) throws WechatApiError {
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.startsWith("bill_date=")) {
          String day = pair.substring("bill_date=".length());
          try {
            java.time.LocalDate.parse(day);
            return day;
          } catch (java.time.format.DateTimeParseException e) {
            throw param("bill_date");
          }
        }
      }
    }
    throw param("bill_date");
  }

  String merchantNo(JsonNode value) throws WechatApiError {
    return merchantNo(StrictJson.text(value));
  }

  String merchantNo(String value) throws WechatApiError {
    if (!WechatProtocol.isMerchantNo(value)) {
      throw new WechatApiError(
          400, WechatProtocol.PARAM_ERROR, "merchant number must be 6-32 of [A-Za-z0-9_*|-]");
    }
    return value;
  }

  /** {@code amount.currency}: three letters, CNY when absent. */
  private static String currency(JsonNode amount) throws WechatApiError {
    JsonNode currency = amount.get("currency");
    if (currency == null) {
      return "CNY";
    }
    String c = StrictJson.text(currency);
    if (c == null || c.length() != 3) {
      throw param("amount.currency");
    }
    return c;
  }

  private static JsonNode nested(ObjectNode json, String field) throws WechatApiError {
    JsonNode value = json.get(field);
    if (value == null || !value.isObject()) {
      throw param(field);
    }
    return value;
  }

  private static String text(ObjectNode json, String field) throws WechatApiError {
    String s = StrictJson.text(json.get(field));
    if (s == null || s.isEmpty()) {
      throw param(field);
    }
    return s;
  }

  private static long positive(JsonNode json, String field) throws WechatApiError {
    OptionalLong n = StrictJson.integer(json.get(field));
    if (n.isEmpty() || n.getAsLong() <= 0) {
      throw param(field);
    }
    return n.getAsLong();
  }

  private static WechatApiError param(String field) {
    return new WechatApiError(400, WechatProtocol.PARAM_ERROR, "invalid " + field);
  }
}
