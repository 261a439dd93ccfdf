package dev.clearway.store.statement;

import dev.clearway.core.statement.HeaderedCsv;
import dev.clearway.core.statement.IsoInstants;
import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.core.statement.StatementParser;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The wallet's daily statement: a header {@code kind,order_no,trade_order_no,amount,currency,at},
 * then one line per executed charge or refund. {@code order_no} is the trade order of a charge and
 * the refund order of a refund; {@code amount} is positive minor units; {@code at} an ISO-8601
 * instant.
 */
public final class WalletCsvParser implements StatementParser {
  static final String HEADER = "kind,order_no,trade_order_no,amount,currency,at";
  private static final int COLUMNS = 6;

  @Override
  public StatementFormat format() {
    return StatementFormat.WALLET_CSV;
  }

  @Override
  public void parse(InputStream in, LineSink sink) throws Exception {
    HeaderedCsv.read(in, HEADER, WalletCsvParser::parseLine, sink);
  }

  private static StatementLine parseLine(long lineNo, String raw)
      throws MalformedStatementException {
    String[] f = columns(lineNo, raw);
    long amount = positiveAmount(lineNo, f[3]);
    if (!isCurrency(f[4])) {
      throw new MalformedStatementException(lineNo, "currency is not three capital letters");
    }
    Instant at;
    try {
      at = IsoInstants.parse(f[5]);
    } catch (DateTimeParseException e) {
      throw new MalformedStatementException(lineNo, "at is not an ISO-8601 instant");
    }
    return switch (f[0]) {
      case "charge" ->
          new StatementLine(
              lineNo, raw, StatementLineKind.CHARGE, f[2], null, null, null, amount, 0, f[4], at);
      case "refund" ->
          new StatementLine(
              lineNo, raw, StatementLineKind.REFUND, f[2], f[1], null, null, -amount, 0, f[4], at);
      default -> throw new MalformedStatementException(lineNo, "kind is not charge or refund");
    };
  }

  /** The six comma-separated columns of a data line, none of them empty. */
  private static String[] columns(long lineNo, String raw) throws MalformedStatementException {
    String[] f = new String[COLUMNS];
    int count = 0;
    int start = 0;
    for (int i = 0; i <= raw.length(); i++) {
      if (i == raw.length() || raw.charAt(i) == ',') {
        if (count < COLUMNS) {
          f[count] = raw.substring(start, i);
        }
        count++;
        start = i + 1;
      }
    }
    if (count != COLUMNS) {
      throw new MalformedStatementException(
          lineNo, "expected " + COLUMNS + " columns, found " + count);
    }
    for (int i = 0; i < COLUMNS; i++) {
      if (f[i].isEmpty()) {
        throw new MalformedStatementException(lineNo, "column " + (i + 1) + " is empty");
      }
    }
    return f;
  }

  private static boolean isCurrency(String text) {
    return text.length() == 3
        && isCapital(text.charAt(0))
        && isCapital(text.charAt(1))
        && isCapital(text.charAt(2));
  }

  private static boolean isCapital(char ch) {
    return ch >= 'A' && ch <= 'Z';
  }

  /** Whole minor units: one to eighteen ASCII digits, above zero. */
  private static long positiveAmount(long lineNo, String text) throws MalformedStatementException {
    if (text.length() > 18) {
      throw new MalformedStatementException(lineNo, "amount is not whole minor units");
    }
    long amount = 0;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (ch < '0' || ch > '9') {
        throw new MalformedStatementException(lineNo, "amount is not whole minor units");
      }
      amount = amount * 10 + (ch - '0');
    }
    if (amount <= 0) {
      throw new MalformedStatementException(lineNo, "amount is not positive");
    }
    return amount;
  }
}
