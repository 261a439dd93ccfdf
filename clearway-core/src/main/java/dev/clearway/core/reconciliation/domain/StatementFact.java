package dev.clearway.core.reconciliation.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * The facts of one statement line, as the PSP or the wallet reported them. Amounts and fees are in
 * minor units of {@code currency}; identities the PSP did not echo are null.
 *
 * @param attemptKey the idempotency key the attempt was sent with (the PSP's echo of it)
 * @param pspReference the PSP's own id of the movement
 * @param account the channel account the statement belongs to
 */
public record StatementFact(
    StatementKind kind,
    LineOutcome outcome,
    String tradeOrderNo,
    String refundOrderNo,
    String attemptKey,
    String pspReference,
    long amountMinor,
    long feeMinor,
    String currency,
    Instant at,
    String account) {

  public StatementFact {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(account, "account");
  }

  /** A succeeded charge line. */
  public static StatementFact charge(
      String tradeOrderNo,
      String attemptKey,
      String pspReference,
      long amountMinor,
      long feeMinor,
      String currency,
      Instant at,
      String account) {
    return new StatementFact(
        StatementKind.CHARGE,
        LineOutcome.SUCCEEDED,
        tradeOrderNo,
        null,
        attemptKey,
        pspReference,
        amountMinor,
        feeMinor,
        currency,
        at,
        account);
  }

  /** A refund line with the PSP's status of it. */
  public static StatementFact refund(
      LineOutcome outcome,
      String tradeOrderNo,
      String refundOrderNo,
      String pspReference,
      long amountMinor,
      String currency,
      Instant at,
      String account) {
    return new StatementFact(
        StatementKind.REFUND,
        outcome,
        tradeOrderNo,
        refundOrderNo,
        null,
        pspReference,
        amountMinor,
        0,
        currency,
        at,
        account);
  }

  public boolean succeeded() {
    return outcome == LineOutcome.SUCCEEDED;
  }
}
