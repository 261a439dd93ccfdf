package dev.clearway.store.statement;

import dev.clearway.core.statement.HeaderedCsv;
import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementLine;
import dev.clearway.core.statement.StatementLineKind;
import dev.clearway.core.statement.StatementParser;
import java.io.InputStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * The wallet's daily statement: a header {@code kind,order_no,trade_order_no,amount,currency,at},
 * then one line per executed charge or refund. {@code order_no} is the trade order of a charge and
 * the refund order of a refund; {@code amount} is positive minor units; {@code at} an ISO-8601
 * instant.
 */
public final class WalletCsvParser implements StatementParser {
  static final String HEADER = "kind,order_no,trade_order_no,amount,currency,at";
  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");
  private static final Pattern MINOR_UNITS = Pattern.compile("[0-9]{1,18}");

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
    String[] f = raw.split(",", -1);
    if (f.length != 6) {
      throw new MalformedStatementException(lineNo, "expected 6 columns, found " + f.length);
    }
    for (int i = 0; i < f.length; i++) {
      if (f[i].isEmpty()) {
        throw new MalformedStatementException(lineNo, "column " + (i + 1) + " is empty");
      }
    }
    long amount = positiveAmount(lineNo, f[3]);
    if (!CURRENCY.matcher(f[4]).matches()) {
      throw new MalformedStatementException(lineNo, "currency is not three capital letters");
    }
    Instant at;
    try {
      at = Instant.parse(f[5]);
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

  private static long positiveAmount(long lineNo, String text) throws MalformedStatementException {
    if (!MINOR_UNITS.matcher(text).matches()) {
      throw new MalformedStatementException(lineNo, "amount is not whole minor units");
    }
    long amount = Long.parseLong(text);
    if (amount <= 0) {
      throw new MalformedStatementException(lineNo, "amount is not positive");
    }
    return amount;
  }
}
