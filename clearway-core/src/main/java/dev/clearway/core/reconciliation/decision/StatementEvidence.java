package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.StatementFact;
import java.time.Instant;

/** What the statement showed, recorded with an automatic repair as its provider evidence. */
public record StatementEvidence(
    String account, String pspReference, long amountMinor, String currency, Instant at) {

  public static StatementEvidence of(StatementFact line) {
    return new StatementEvidence(
        line.account(), line.pspReference(), line.amountMinor(), line.currency(), line.at());
  }
}
