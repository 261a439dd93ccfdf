package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.reconciliation.port.DifferenceStore.Found;

/**
 * The stable key a difference is about, so that every run that sees it again finds the one on
 * record: the refund order no for a refund's difference, the statement line's own references for a
 * line no local row knows (or a PSP adjustment), and the trade order no otherwise.
 */
final class DifferenceIdentity {
  private DifferenceIdentity() {}

  static String of(Found found) {
    Difference d = found.difference();
    return switch (d.kind()) {
      case REFUND_NOT_AT_PSP, REFUND_SETTLED_LOCAL_PENDING -> "refund:" + refundOrderNo(d);
      case AMOUNT_MISMATCH, CURRENCY_MISMATCH ->
          d.statement() != null && d.statement().kind() == StatementKind.REFUND
              ? "refund:" + refundOrderNo(d)
              : "trade:" + d.tradeOrderNo();
      case UNKNOWN_STATEMENT_LINE, ADJUSTMENT_TO_REVIEW -> "line:" + line(found);
      case CHARGED_LOCAL_PAYING,
          LATE_CHARGE,
          BUSINESS_DONE_UNCONFIRMED,
          ATTRIBUTION_UNCLEAR,
          BIZ_SUCCESS_WITHOUT_CHARGE,
          DUPLICATE_CHARGE,
          MISSING_FROM_STATEMENT,
          FEE_MISMATCH ->
          "trade:" + d.tradeOrderNo();
    };
  }

  /** The refund number of the difference: the statement's, else the local view's. */
  static String refundOrderNo(Difference d) {
    if (d.statement() != null && d.statement().refundOrderNo() != null) {
      return d.statement().refundOrderNo();
    }
    return d.local() == null ? null : d.local().refundOrderNo();
  }

  /** A line by the most specific reference it carries; by its position when it carries none. */
  private static String line(Found found) {
    StatementFact s = found.difference().statement();
    if (s == null) {
      return "trade " + found.difference().tradeOrderNo();
    }
    String prefix = s.kind().name() + " ";
    if (s.pspReference() != null) {
      return prefix + "psp " + s.pspReference();
    }
    if (s.refundOrderNo() != null) {
      return prefix + "refund " + s.refundOrderNo();
    }
    if (s.attemptKey() != null) {
      return prefix + "key " + s.attemptKey();
    }
    if (s.tradeOrderNo() != null) {
      return prefix + "trade " + s.tradeOrderNo();
    }
    if (found.statementFileId() != null && found.statementLineNo() != null) {
      return prefix + "file " + found.statementFileId() + " line " + found.statementLineNo();
    }
    return prefix + s.at() + " " + s.amountMinor() + " " + s.currency();
  }
}
