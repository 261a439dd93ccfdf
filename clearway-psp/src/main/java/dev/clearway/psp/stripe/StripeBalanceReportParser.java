package dev.clearway.psp.stripe;

import dev.clearway.core.statement.HeaderedCsv;
import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.core.statement.StatementParser;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Stripe's balance-transactions report: a header {@code
 * id,type,amount,fee,net,currency,created,source,metadata_attempt_key,refund_metadata_refund_no},
 * then one line per balance transaction of type {@code charge}, {@code refund} or {@code
 * adjustment}. Amounts are signed minor units (a refund is negative), {@code net} must be {@code
 * amount - fee}, {@code created} is unix seconds. Fields may be double-quoted as in RFC 4180.
 *
 * <p>{@code source} is Stripe's own id of the movement (a payment intent, a refund {@code re_...}),
 * never one of our numbers. The two metadata columns are those of Stripe's itemized reports ({@code
 * payment_metadata[attempt_key]}, {@code refund_metadata[refund_no]}): the payment's metadata
 * carries our attempt key on every line of that payment, a refund's metadata our refund number
 * (empty for a refund made outside Clearway, which is then matched through its payment).
 */
public final class StripeBalanceReportParser implements StatementParser {
  public static final String HEADER =
      "id,type,amount,fee,net,currency,created,source,metadata_attempt_key,"
          + "refund_metadata_refund_no";
  private static final int COLUMNS = 10;

  @Override
  public StatementFormat format() {
    return StatementFormat.STRIPE_BALANCE;
  }

  @Override
  public void parse(InputStream in, LineSink sink) throws Exception {
    HeaderedCsv.read(in, HEADER, StripeBalanceReportParser::parseLine, sink);
  }

  private static StatementLine parseLine(long lineNo, String raw)
      throws MalformedStatementException {
    List<String> f = split(lineNo, raw);
    if (f.size() != COLUMNS) {
      throw new MalformedStatementException(
          lineNo, "expected " + COLUMNS + " columns, found " + f.size());
    }
    String id = nonEmpty(lineNo, "id", f.get(0));
    long amount = minor(lineNo, "amount", f.get(2));
    long fee = minor(lineNo, "fee", f.get(3));
    long net = minor(lineNo, "net", f.get(4));
    if (net != amount - fee) {
      throw new MalformedStatementException(lineNo, "net is not amount - fee");
    }
    String currency = f.get(5);
    if (!currency.matches("[a-zA-Z]{3}")) {
      throw new MalformedStatementException(lineNo, "currency is not a currency code");
    }
    Instant created = Instant.ofEpochSecond(minor(lineNo, "created", f.get(6)));
    String source = nonEmpty(lineNo, "source", f.get(7));
    String attemptKey = f.get(8).isEmpty() ? null : f.get(8);
    String refundNo = f.get(9).isEmpty() ? null : f.get(9);
    StatementLineKind kind = kind(lineNo, f.get(1), amount);
    if (refundNo != null && kind != StatementLineKind.REFUND) {
      throw new MalformedStatementException(lineNo, "refund metadata on a " + f.get(1) + " line");
    }
    return new StatementLine(
        lineNo,
        raw,
        kind,
        null,
        refundNo,
        attemptKey,
        kind == StatementLineKind.ADJUSTMENT ? id : source,
        amount,
        fee,
        currency.toUpperCase(Locale.ROOT),
        created);
  }

  private static StatementLineKind kind(long lineNo, String type, long amount)
      throws MalformedStatementException {
    switch (type) {
      case "charge":
        if (amount <= 0) {
          throw new MalformedStatementException(lineNo, "a charge's amount is not positive");
        }
        return StatementLineKind.CHARGE;
      case "refund":
        if (amount >= 0) {
          throw new MalformedStatementException(lineNo, "a refund's amount is not negative");
        }
        return StatementLineKind.REFUND;
      case "adjustment":
        return StatementLineKind.ADJUSTMENT;
      default:
        throw new MalformedStatementException(lineNo, "type is not charge, refund or adjustment");
    }
  }

  private static long minor(long lineNo, String name, String text)
      throws MalformedStatementException {
    if (!text.matches("-?[0-9]{1,18}")) {
      throw new MalformedStatementException(lineNo, name + " is not a whole number");
    }
    return Long.parseLong(text);
  }

  private static String nonEmpty(long lineNo, String name, String value)
      throws MalformedStatementException {
    if (value.isEmpty()) {
      throw new MalformedStatementException(lineNo, name + " is empty");
    }
    return value;
  }

  /** RFC 4180 fields of one line; a quoted field may hold commas and doubled quotes. */
  static List<String> split(long lineNo, String raw) throws MalformedStatementException {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    int i = 0;
    while (true) {
      if (i < raw.length() && raw.charAt(i) == '"') {
        i = quoted(lineNo, raw, i + 1, field);
      } else {
        while (i < raw.length() && raw.charAt(i) != ',') {
          if (raw.charAt(i) == '"') {
            throw new MalformedStatementException(lineNo, "a quote inside an unquoted field");
          }
          field.append(raw.charAt(i++));
        }
      }
      fields.add(field.toString());
      field.setLength(0);
      if (i >= raw.length()) {
        return fields;
      }
      if (raw.charAt(i) != ',') {
        throw new MalformedStatementException(lineNo, "text after a closing quote");
      }
      i++;
    }
  }

  private static int quoted(long lineNo, String raw, int from, StringBuilder field)
      throws MalformedStatementException {
    int i = from;
    while (i < raw.length()) {
      char ch = raw.charAt(i);
      if (ch == '"') {
        if (i + 1 < raw.length() && raw.charAt(i + 1) == '"') {
          field.append('"');
          i += 2;
          continue;
        }
        return i + 1;
      }
      field.append(ch);
      i++;
    }
    throw new MalformedStatementException(lineNo, "an unclosed quote");
  }
}
