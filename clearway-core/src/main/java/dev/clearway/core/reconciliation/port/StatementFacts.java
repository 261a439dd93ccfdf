package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.StatementFact;
import java.time.LocalDate;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** The money lines of the imported statements, as facts for matching. */
public interface StatementFacts {

  /**
   * Streams the money lines of one imported file in line order, from a cursor (bounded memory); the
   * caller closes the stream.
   */
  Stream<StatementFact> lines(long fileId, String account);

  /**
   * Every money line of the account's files in force that names this trade order or attempt key
   * (either may be null), across days: a payment near midnight sits in the neighbouring day's file.
   */
  List<StatementFact> linesFor(String account, String tradeOrderNo, String attemptKey);

  /** Every refund line of the account's files in force with this refund order number. */
  List<StatementFact> refundLinesFor(String account, String refundOrderNo);

  /** True when a file for that account and day is in force. */
  boolean imported(String account, LocalDate day);

  /**
   * The total of the file's fee lines (a fee or payout line grouping many payments, kind FEE): each
   * line's fee, or its amount's magnitude when it has no fee column; empty when the file reports
   * fees on the charge lines only (it has no fee line).
   */
  default OptionalLong groupedFees(long fileId) {
    return OptionalLong.empty();
  }
}
