package dev.clearway.sim;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The simulated wallet's daily statement, rendered from its ledger: a header {@code
 * kind,order_no,trade_order_no,amount,currency,at}, then every charge and refund it executed within
 * the UTC day, in ledger order, amounts in minor units and times as ISO-8601 instants.
 */
public final class WalletStatement {
  public static final String HEADER = "kind,order_no,trade_order_no,amount,currency,at";

  private WalletStatement() {}

  public static byte[] render(List<LedgerEntry> ledger, LocalDate day, String currency) {
    Instant from = day.atStartOfDay(ZoneOffset.UTC).toInstant();
    Instant to = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    StringBuilder out = new StringBuilder(HEADER).append('\n');
    for (LedgerEntry e : ledger) {
      if (e.at().isBefore(from) || !e.at().isBefore(to)) {
        continue;
      }
      out.append(e.kind() == LedgerEntry.Kind.CHARGE ? "charge" : "refund")
          .append(',')
          .append(e.orderNo())
          .append(',')
          .append(e.tradeOrderNo())
          .append(',')
          .append(e.amount())
          .append(',')
          .append(currency)
          .append(',')
          .append(e.at())
          .append('\n');
    }
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }
}
