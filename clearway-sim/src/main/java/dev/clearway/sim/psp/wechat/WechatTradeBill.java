package dev.clearway.sim.psp.wechat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Renders the simulated account's trade bill of one day (China Standard Time) in WeChat Pay's
 * layout: the 27-column header, one line per paid trade or settled refund with every field prefixed
 * by a backtick, the summary header and the summary line. Amounts are yuan with two decimals; the
 * fee is 0.60% of the amount, returned pro rata on a refund.
 */
final class WechatTradeBill {
  static final ZoneOffset CHINA = ZoneOffset.ofHours(8);
  private static final String HEADER =
      "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,"
          + "应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,"
          + "手续费,费率,订单金额,申请退款金额,费率备注";
  private static final String SUMMARY = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(CHINA);
  private static final String PAYER = "oSimPayer000000000000000000";

  /** A paid trade ({@code refundId} null) or a settled refund. */
  record Entry(
      NativeOrder order,
      String transactionId,
      String refundId,
      String outRefundNo,
      long refundAmount,
      Instant at,
      long feeDelta) {
    static Entry trade(NativeOrder order, String transactionId, Instant at) {
      return new Entry(order, transactionId, null, null, 0, at, 0);
    }

    /** The same entry with a fee other than the agreed one (an injected difference). */
    Entry withFeeDelta(long delta) {
      return new Entry(order, transactionId, refundId, outRefundNo, refundAmount, at, delta);
    }

    static Entry refund(
        NativeOrder order,
        String transactionId,
        String refundId,
        String outRefundNo,
        long amount,
        Instant at) {
      return new Entry(order, transactionId, refundId, outRefundNo, amount, at, 0);
    }
  }

  private WechatTradeBill() {}

  static Instant dayStart(LocalDate day) {
    return day.atStartOfDay().toInstant(CHINA);
  }

  static byte[] render(String mchid, List<Entry> entries) {
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    long settled = 0;
    long refunded = 0;
    long fees = 0;
    for (Entry e : entries) {
      boolean refund = e.refundId() != null;
      long amount = refund ? e.refundAmount() : e.order().amount().total();
      long fee = refund ? -fee(amount) : fee(amount) + e.feeDelta();
      settled += refund ? 0 : amount;
      refunded += refund ? amount : 0;
      fees += fee;
      out.append(line(mchid, e, refund, amount, fee)).append('\n');
    }
    out.append(SUMMARY).append('\n');
    out.append(
            backticked(
                Long.toString(entries.size()),
                yuan(settled),
                yuan(refunded),
                yuan(0),
                yuan(fees),
                yuan(settled),
                yuan(refunded)))
        .append('\n');
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String line(String mchid, Entry e, boolean refund, long amount, long fee) {
    NativeOrder o = e.order();
    return backticked(
        TIME.format(e.at()),
        o.appid(),
        mchid,
        "0",
        "",
        e.transactionId(),
        o.outTradeNo(),
        PAYER,
        "NATIVE",
        refund ? "REFUND" : "SUCCESS",
        "OTHERS",
        o.amount().currency(),
        yuan(refund ? 0 : amount),
        "0.00",
        refund ? e.refundId() : "0",
        refund ? e.outRefundNo() : "0",
        yuan(refund ? amount : 0),
        "0.00",
        refund ? "ORIGINAL" : "",
        refund ? "SUCCESS" : "",
        plain(o.description()),
        plain(o.attach()),
        yuan(fee),
        "0.60%",
        yuan(refund ? 0 : amount),
        yuan(refund ? amount : 0),
        "");
  }

  /** Free text without the field separator, as WeChat renders it. */
  private static String plain(String text) {
    return text == null ? "" : text.replace(',', '，').replace('\n', ' ');
  }

  /** 0.60% of the amount, rounded half up to the fen. */
  static long fee(long fen) {
    return (fen * 6 + 500) / 1000;
  }

  static String sha1Hex(byte[] bytes) {
    try {
      return java.util.HexFormat.of()
          .formatHex(java.security.MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String yuan(long fen) {
    String sign = fen < 0 ? "-" : "";
    long abs = Math.abs(fen);
    return String.format("%s%d.%02d", sign, abs / 100, abs % 100);
  }

  private static String backticked(String... fields) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < fields.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append('`').append(fields[i]);
    }
    return b.toString();
  }
}
