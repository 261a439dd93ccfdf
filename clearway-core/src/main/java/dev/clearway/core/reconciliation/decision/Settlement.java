package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.domain.StatementFact;

/** The settlement status of one payment, from its local row and its charge line (if any). */
public final class Settlement {
  private Settlement() {}

  /**
   * @param chargeLine the succeeded charge line matched to {@code local}, or null when none was
   */
  public static SettlementStatus of(LocalFact local, StatementFact chargeLine, AccountTerms terms) {
    return of(local, chargeLine, terms, false);
  }

  /**
   * As {@link #of(LocalFact, StatementFact, AccountTerms)}; with {@code feesGrouped} a line without
   * a fee of its own agrees on the fee (the statement's fee lines are balanced as a group).
   */
  public static SettlementStatus of(
      LocalFact local, StatementFact chargeLine, AccountTerms terms, boolean feesGrouped) {
    if (chargeLine == null || !chargeLine.succeeded()) {
      return SettlementStatus.UNSETTLED;
    }
    boolean feeAgrees =
        (feesGrouped && chargeLine.feeMinor() == 0)
            || chargeLine.feeMinor() == terms.expectedChargeFee(chargeLine.amountMinor());
    boolean agrees =
        chargeLine.currency().equals(local.currency())
            && chargeLine.amountMinor() == local.amountMinor()
            && feeAgrees;
    return agrees ? SettlementStatus.SETTLED : SettlementStatus.MISMATCH;
  }
}
