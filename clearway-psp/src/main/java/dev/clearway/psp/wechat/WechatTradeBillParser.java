package dev.clearway.psp.wechat;

import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.core.statement.StatementParser;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * WeChat Pay's trade bill ({@code GET /v3/bill/tradebill}, {@code bill_type=ALL}): a header of 27
 * columns, one line per trade ({@code 交易状态 SUCCESS}) or refund ({@code REFUND}) with every field
 * prefixed by a backtick, then a summary header and one summary line whose count and totals must
 * agree with the lines above. Amounts are yuan with two decimals; times are China Standard Time.
 *
 * <p>The {@code 商户订单号} (out_trade_no) is the attempt's key and {@code 商户数据包} (attach) the
 * merchant's order reference.
 */
public final class WechatTradeBillParser implements StatementParser {
  public static final String HEADER =
      "交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,"
          + "应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,"
          + "手续费,费率,订单金额,申请退款金额,费率备注";
  public static final String SUMMARY_HEADER = "总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款总金额";
  private static final int COLUMNS = 27;
  private static final int SUMMARY_COLUMNS = 7;
  private static final ZoneOffset CHINA = ZoneOffset.ofHours(8);
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  @Override
  public StatementFormat format() {
    return StatementFormat.WECHAT_TRADEBILL;
  }

  /** What the lines above the summary add up to. */
  private static final class Totals {
    long count;
    long settled;
    long refunded;
    long fees;
  }

  @Override
  public void parse(InputStream in, LineSink sink) throws Exception {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()));
    String line = reader.readLine();
    if (line == null) {
      throw new MalformedStatementException(0, "empty file: no header");
    }
    if (!HEADER.equals(stripBom(line))) {
      throw new MalformedStatementException(1, "header is not the trade bill header");
    }
    sink.accept(StatementLine.textOnly(1, line));
    Totals totals = new Totals();
    long lineNo = 1;
    while ((line = reader.readLine()) != null) {
      lineNo++;
      if (SUMMARY_HEADER.equals(line)) {
        sink.accept(StatementLine.textOnly(lineNo, line));
        readSummary(reader, lineNo, totals, sink);
        return;
      }
      StatementLine parsed = parseTrade(lineNo, line);
      add(totals, parsed);
      sink.accept(parsed);
    }
    throw new MalformedStatementException(lineNo, "truncated: no summary after line " + lineNo);
  }

  private static void readSummary(
      BufferedReader reader, long headerNo, Totals totals, LineSink sink) throws Exception {
    long lineNo = headerNo + 1;
    String line = reader.readLine();
    if (line == null) {
      throw new MalformedStatementException(lineNo, "truncated: summary header without summary");
    }
    String[] f = fields(lineNo, line, SUMMARY_COLUMNS);
    check(lineNo, "总交易单数", count(lineNo, f[0]), totals.count);
    check(lineNo, "应结订单总金额", yuan(lineNo, "应结订单总金额", f[1]), totals.settled);
    check(lineNo, "退款总金额", yuan(lineNo, "退款总金额", f[2]), totals.refunded);
    check(lineNo, "手续费总金额", yuan(lineNo, "手续费总金额", f[4]), totals.fees);
    for (int i : new int[] {3, 5, 6}) {
      yuan(lineNo, "summary column " + (i + 1), f[i]);
    }
    sink.accept(StatementLine.textOnly(lineNo, line));
    String extra = reader.readLine();
    if (extra != null) {
      throw new MalformedStatementException(lineNo + 1, "a line after the summary");
    }
  }

  private static StatementLine parseTrade(long lineNo, String raw)
      throws MalformedStatementException {
    String[] f = fields(lineNo, raw, COLUMNS);
    java.time.Instant at;
    try {
      at = LocalDateTime.parse(f[0], TIME).toInstant(CHINA);
    } catch (DateTimeParseException e) {
      throw new MalformedStatementException(lineNo, "交易时间 is not yyyy-MM-dd HH:mm:ss");
    }
    String currency = f[11];
    if (!currency.matches("[A-Z]{3}")) {
      throw new MalformedStatementException(lineNo, "货币种类 is not a currency code");
    }
    long fee = yuan(lineNo, "手续费", f[22]);
    String attach = f[21].isEmpty() ? null : f[21];
    String outTradeNo = required(lineNo, "商户订单号", f[6]);
    return switch (f[9]) {
      case "SUCCESS" ->
          new StatementLine(
              lineNo,
              raw,
              StatementLineKind.CHARGE,
              attach,
              null,
              outTradeNo,
              required(lineNo, "微信订单号", f[5]),
              yuan(lineNo, "应结订单金额", f[12]),
              fee,
              currency,
              at);
      case "REFUND" ->
          new StatementLine(
              lineNo,
              raw,
              StatementLineKind.REFUND,
              attach,
              required(lineNo, "商户退款单号", f[15]),
              outTradeNo,
              required(lineNo, "微信退款单号", f[14]),
              -yuan(lineNo, "退款金额", f[16]),
              fee,
              currency,
              at);
      default -> throw new MalformedStatementException(lineNo, "交易状态 is not SUCCESS or REFUND");
    };
  }

  private static void add(Totals totals, StatementLine line) {
    totals.count++;
    totals.fees += line.fee();
    if (line.kind() == StatementLineKind.CHARGE) {
      totals.settled += line.amount();
    } else {
      totals.refunded -= line.amount();
    }
  }

  /** Splits a line into backtick-prefixed fields and strips the backticks. */
  private static String[] fields(long lineNo, String raw, int expected)
      throws MalformedStatementException {
    String[] f = raw.split(",", -1);
    if (f.length != expected) {
      throw new MalformedStatementException(
          lineNo, "expected " + expected + " columns, found " + f.length);
    }
    for (int i = 0; i < f.length; i++) {
      if (!f[i].startsWith("`")) {
        throw new MalformedStatementException(
            lineNo, "column " + (i + 1) + " is not prefixed by a backtick");
      }
      f[i] = f[i].substring(1);
    }
    return f;
  }

  private static String required(long lineNo, String name, String value)
      throws MalformedStatementException {
    if (value.isEmpty()) {
      throw new MalformedStatementException(lineNo, name + " is empty");
    }
    return value;
  }

  /** Yuan with exactly two decimals, as minor units (fen). */
  static long yuan(long lineNo, String name, String text) throws MalformedStatementException {
    if (!text.matches("-?[0-9]{1,15}\\.[0-9]{2}")) {
      throw new MalformedStatementException(lineNo, name + " is not yuan with two decimals");
    }
    boolean negative = text.startsWith("-");
    String digits = (negative ? text.substring(1) : text).replace(".", "");
    long fen = Long.parseLong(digits);
    return negative ? -fen : fen;
  }

  private static long count(long lineNo, String text) throws MalformedStatementException {
    if (!text.matches("[0-9]{1,18}")) {
      throw new MalformedStatementException(lineNo, "总交易单数 is not a count");
    }
    return Long.parseLong(text);
  }

  private static void check(long lineNo, String name, long stated, long computed)
      throws MalformedStatementException {
    if (stated != computed) {
      throw new MalformedStatementException(
          lineNo, name + " is " + stated + " but the lines add up to " + computed);
    }
  }

  private static String stripBom(String line) {
    return line.startsWith("\uFEFF") ? line.substring(1) : line;
  }
}
