package dev.clearway.core.statement;

import java.time.Instant;
import java.util.Objects;

/**
 * One physical line of a statement: its raw text exactly as in the file (without the line
 * terminator) and, for a line that records money, the parsed columns. Header and summary lines
 * carry only their raw text ({@code kind} null).
 *
 * @param amount signed minor units as the merchant's balance moves: a charge is positive, a refund
 *     negative, an adjustment either
 * @param fee the PSP's fee in minor units, zero when the format has none
 */
public record StatementLine(
    long lineNo,
    String raw,
    StatementLineKind kind,
    String tradeOrderNo,
    String refundOrderNo,
    String attemptKey,
    String pspReference,
    long amount,
    long fee,
    String currency,
    Instant at) {
  public StatementLine {
    Objects.requireNonNull(raw, "raw");
    if (kind != null) {
      Objects.requireNonNull(currency, "currency");
      Objects.requireNonNull(at, "at");
    }
  }

  /** A header or summary line: kept as it is, records no money. */
  public static StatementLine textOnly(long lineNo, String raw) {
    return new StatementLine(lineNo, raw, null, null, null, null, null, 0, 0, null, null);
  }

  public boolean recordsMoney() {
    return kind != null;
  }
}
