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
    if (chargeLine == null || !chargeLine.succeeded()) {
      return SettlementStatus.UNSETTLED;
    }
    boolean agrees =
        chargeLine.currency().equals(local.currency())
            && chargeLine.amountMinor() == local.amountMinor()
            && chargeLine.feeMinor() == terms.expectedChargeFee(chargeLine.amountMinor());
    return agrees ? SettlementStatus.SETTLED : SettlementStatus.MISMATCH;
  }
}
