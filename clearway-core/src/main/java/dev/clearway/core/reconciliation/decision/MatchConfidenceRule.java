package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.StatementKind;

/**
 * How sure the match behind a difference is. A line and a local row matched exactly on identity and
 * amount are CONFIRMED; a match that needs a tolerance (an amount or a fee off by a little) or
 * names two local candidates is SUGGESTED, for a person; a side with nothing to match, or an amount
 * beyond the tolerance (the identities agree, the money does not), is NONE.
 */
public final class MatchConfidenceRule {
  private MatchConfidenceRule() {}

  /**
   * @param ambiguous the line named two local candidates
   */
  public static MatchConfidence of(
      Difference d, boolean ambiguous, Tolerances tolerances, AccountTerms terms) {
    if (d.statement() == null || d.local() == null) {
      return MatchConfidence.NONE;
    }
    if (ambiguous) {
      return MatchConfidence.SUGGESTED;
    }
    return switch (d.kind()) {
      case AMOUNT_MISMATCH ->
          Math.abs(d.statement().amountMinor() - expectedAmount(d)) <= tolerances.amountMinor()
              ? MatchConfidence.SUGGESTED
              : MatchConfidence.NONE;
      case CURRENCY_MISMATCH -> MatchConfidence.NONE;
      case FEE_MISMATCH ->
          Math.abs(d.statement().feeMinor() - terms.expectedChargeFee(d.statement().amountMinor()))
                  <= tolerances.feeMinor()
              ? MatchConfidence.SUGGESTED
              : MatchConfidence.CONFIRMED;
      case CHARGED_LOCAL_PAYING,
          LATE_CHARGE,
          BUSINESS_DONE_UNCONFIRMED,
          ATTRIBUTION_UNCLEAR,
          BIZ_SUCCESS_WITHOUT_CHARGE,
          REFUND_NOT_AT_PSP,
          REFUND_SETTLED_LOCAL_PENDING,
          DUPLICATE_CHARGE,
          UNKNOWN_STATEMENT_LINE,
          MISSING_FROM_STATEMENT,
          ADJUSTMENT_TO_REVIEW ->
          MatchConfidence.CONFIRMED;
    };
  }

  /** The amount the local side holds for the line: its refund order's, else the flow's. */
  private static long expectedAmount(Difference d) {
    boolean refundLine = d.statement().kind() == StatementKind.REFUND;
    return refundLine && d.local().refund() != null
        ? d.local().refund().amountMinor()
        : d.local().amountMinor();
  }
}
