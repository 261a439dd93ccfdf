package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import java.util.List;
import java.util.Optional;

/**
 * Rebuilds a recorded difference from what holds now, rather than from the evidence stored when it
 * was found: the local row read again by its stable identity, the statement lines of the account's
 * files in force (a corrected file supersedes the one the difference came from), and the business
 * asked again. The repair is then decided on fresh facts, which is what its class says must be
 * confirmed; the stored evidence stays as the record of what was found.
 */
final class DifferenceRebuild {
  private final ReconPorts ports;

  DifferenceRebuild(ReconPorts ports) {
    this.ports = ports;
  }

  /** The local row the difference is about, read again; empty when there is none (any more). */
  Optional<LocalFact> local(RecordedDifference rd) {
    if (isRefundClass(rd) && rd.refundOrderNo() != null) {
      return ports.locals().byRefundOrderNo(rd.refundOrderNo());
    }
    return rd.tradeOrderNo() == null
        ? Optional.empty()
        : ports.locals().byTradeOrderNo(rd.tradeOrderNo());
  }

  /**
   * The statement line of the difference in the files in force: for a refund class the refund line
   * of its number (a succeeded one first), else the charge line of its trade order or attempt key.
   */
  Optional<StatementFact> line(RecordedDifference rd, LocalFact local) {
    if (isRefundClass(rd)) {
      String refundNo =
          rd.refundOrderNo() != null
              ? rd.refundOrderNo()
              : local == null ? null : local.refundOrderNo();
      if (refundNo == null) {
        return Optional.empty();
      }
      List<StatementFact> lines =
          local != null && refundNo.equals(local.refundOrderNo())
              ? RefundLines.of(ports.facts(), rd.account(), local)
              : ports.facts().refundLinesFor(rd.account(), refundNo);
      return lines.stream()
          .filter(StatementFact::succeeded)
          .findFirst()
          .or(() -> lines.stream().findFirst());
    }
    String key = local == null ? null : local.attemptKey();
    if (rd.tradeOrderNo() == null && key == null) {
      return Optional.empty();
    }
    return ports.facts().linesFor(rd.account(), rd.tradeOrderNo(), key).stream()
        .filter(l -> l.kind() == StatementKind.CHARGE && l.succeeded())
        .findFirst();
  }

  /** The difference as it stands now; empty when neither side can be found again. */
  Optional<Difference> rebuild(RecordedDifference rd, LocalFact local) {
    StatementFact line = line(rd, local).orElse(null);
    if (line == null && local == null) {
      return Optional.empty();
    }
    BusinessFact business = null;
    LocalFact sibling = null;
    if (local != null && asksBusiness(rd)) {
      business = ports.business().byGoal(local.goal()).orElse(null);
      if (business != null && business.isAttributed()) {
        sibling = ports.locals().byTradeOrderNo(business.attributedTradeOrderNo()).orElse(null);
      }
    }
    return Optional.of(
        new Difference(rd.kind(), line, local, sibling, business, rd.actionableAt(), rd.detail()));
  }

  private static boolean isRefundClass(RecordedDifference rd) {
    return switch (rd.kind()) {
      case REFUND_NOT_AT_PSP, REFUND_SETTLED_LOCAL_PENDING -> true;
      case AMOUNT_MISMATCH, CURRENCY_MISMATCH -> rd.refundOrderNo() != null;
      case CHARGED_LOCAL_PAYING,
          LATE_CHARGE,
          BUSINESS_DONE_UNCONFIRMED,
          ATTRIBUTION_UNCLEAR,
          BIZ_SUCCESS_WITHOUT_CHARGE,
          DUPLICATE_CHARGE,
          UNKNOWN_STATEMENT_LINE,
          MISSING_FROM_STATEMENT,
          FEE_MISMATCH,
          ADJUSTMENT_TO_REVIEW ->
          false;
    };
  }

  private static boolean asksBusiness(RecordedDifference rd) {
    return switch (rd.kind()) {
      case BUSINESS_DONE_UNCONFIRMED, DUPLICATE_CHARGE, ATTRIBUTION_UNCLEAR -> true;
      case CHARGED_LOCAL_PAYING,
          LATE_CHARGE,
          BIZ_SUCCESS_WITHOUT_CHARGE,
          REFUND_NOT_AT_PSP,
          REFUND_SETTLED_LOCAL_PENDING,
          AMOUNT_MISMATCH,
          CURRENCY_MISMATCH,
          UNKNOWN_STATEMENT_LINE,
          MISSING_FROM_STATEMENT,
          FEE_MISMATCH,
          ADJUSTMENT_TO_REVIEW ->
          false;
    };
  }
}
