package dev.clearway.sim.psp.wechat;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** Renders orders and refunds as the JSON objects WeChat Pay v3 returns and notifies. */
final class WechatResources {
  private static final ZoneOffset BEIJING = ZoneOffset.ofHours(8);

  private WechatResources() {}

  static String time(Instant instant) {
    return OffsetDateTime.ofInstant(instant.truncatedTo(ChronoUnit.SECONDS), BEIJING)
        .format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);
  }

  static Map<String, Object> transaction(String mchid, SimOrder order) {
    NativeOrder r = order.request;
    Map<String, Object> out = new LinkedHashMap<>();
    NativeOrder.Party party = r.party();
    if (party.partner()) {
      out.put("sp_appid", r.appid());
      out.put("sp_mchid", mchid);
      if (party.subAppid() != null) {
        out.put("sub_appid", party.subAppid());
      }
      out.put("sub_mchid", party.subMchid());
    } else {
      out.put("appid", r.appid());
      out.put("mchid", mchid);
    }
    out.put("out_trade_no", r.outTradeNo());
    boolean paid = order.paid();
    if (paid || WechatProtocol.PAYERROR.equals(order.state)) {
      out.put("transaction_id", order.transactionId);
    }
    out.put("trade_type", party.tradeType());
    if (party.openid() != null) {
      out.put("payer", Map.of(party.partner() ? "sub_openid" : "openid", party.openid()));
    }
    out.put("trade_state", order.state);
    out.put("trade_state_desc", describe(order.state));
    if (r.attach() != null) {
      out.put("attach", r.attach());
    }
    if (order.successTime != null) {
      out.put("success_time", time(order.successTime));
    }
    Map<String, Object> amount = new LinkedHashMap<>();
    amount.put("total", r.amount().total());
    amount.put("currency", r.amount().currency());
    if (paid) {
      amount.put("payer_total", r.amount().total());
      amount.put("payer_currency", r.amount().currency());
    }
    out.put("amount", amount);
    return out;
  }

  /**
   * A refund as the refund API returns it ({@code status}) or as a notification carries it ({@code
   * refund_status}).
   */
  static Map<String, Object> refund(String mchid, SimRefund refund, boolean notification) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (notification) {
      out.put("mchid", mchid);
    }
    out.put("refund_id", refund.refundId);
    out.put("out_refund_no", refund.outRefundNo);
    out.put("transaction_id", refund.order.transactionId);
    out.put("out_trade_no", refund.order.request.outTradeNo());
    out.put("channel", "ORIGINAL");
    out.put(notification ? "refund_status" : "status", refund.status);
    out.put("create_time", time(refund.createdAt));
    if (refund.successTime != null) {
      out.put("success_time", time(refund.successTime));
    }
    Map<String, Object> amount = new LinkedHashMap<>();
    amount.put("total", refund.order.request.amount().total());
    amount.put("refund", refund.amount);
    amount.put("payer_total", refund.order.request.amount().total());
    amount.put("payer_refund", refund.amount);
    amount.put("currency", refund.order.request.amount().currency());
    out.put("amount", amount);
    return out;
  }

  private static String describe(String state) {
    return switch (state) {
      case WechatProtocol.SUCCESS -> "支付成功";
      case WechatProtocol.REFUND -> "转入退款";
      case WechatProtocol.NOTPAY -> "未支付";
      case WechatProtocol.CLOSED -> "已关闭";
      case WechatProtocol.USERPAYING -> "用户支付中";
      case WechatProtocol.PAYERROR -> "支付失败";
      default -> state;
    };
  }
}
