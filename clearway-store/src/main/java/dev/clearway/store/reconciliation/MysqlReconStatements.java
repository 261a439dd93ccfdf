package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlDialect.ClaimPage;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The reconciliation statements the MySQL family (MariaDB 10.11, MySQL 8) writes its own way.
 * {@code LINES} is a reserved word there, so {@code recon_run.lines} is quoted; there is no {@code
 * DISTINCT ON}, so the latest run per account is the row whose id is its account's greatest; the
 * difference claim is a locking select then an update of the ids found ({@link
 * SqlDialect#claimPage}), as the MySQL family has neither data-modifying CTEs nor {@code
 * RETURNING}.
 */
final class MysqlReconStatements {
  static final String RUN_COLUMNS =
      "id, account_ref, statement_day, file_id, status, lease_owner, lease_until, `lines`,"
          + " differences, new_differences, auto_repaired, tickets, error, started_at, finished_at";
  static final String RUN_HELD =
      "SELECT "
          + RUN_COLUMNS
          + " FROM recon_run WHERE account_ref = ? AND statement_day = ? AND status = 'RUNNING'"
          + " AND lease_owner = ?";
  static final String RUN_FINISH =
      """
      UPDATE recon_run SET status = 'DONE', `lines` = ?, differences = ?, new_differences = ?,
             auto_repaired = ?, tickets = ?, finished_at = ?, version = version + 1
       WHERE id = ? AND status = 'RUNNING' AND lease_owner = ?
      """;
  static final String RUN_LATEST =
      "SELECT "
          + RUN_COLUMNS
          + " FROM recon_run WHERE id IN (SELECT max(id) FROM recon_run GROUP BY account_ref)"
          + " ORDER BY id DESC";
  static final String RUN_BY_ID = "SELECT " + RUN_COLUMNS + " FROM recon_run WHERE id = ?";

  /**
   * Due differences, oldest due first, read through {@code idx_recon_difference_due} (state,
   * actionable_at, id). Both states are read, so the page is sorted after reading: the rows
   * examined stay locked until the claim commits (a claim holds a short transaction).
   */
  private static final String DUE =
      """
      SELECT id FROM recon_difference
       WHERE state IN ('OPEN', 'AUTO_REPAIRING')
         AND actionable_at <= ?
         AND (lease_until IS NULL OR lease_until <= ?)
       ORDER BY actionable_at, id
       LIMIT ?
         FOR UPDATE SKIP LOCKED
      """;

  private MysqlReconStatements() {}

  /** Takes the lease of a page of due differences; the rows as claimed, oldest due first. */
  static List<RecordedDifference> claimDifferences(
      Connection c, SqlDialect dialect, String owner, Instant leaseUntil, Instant now, int limit)
      throws SQLException {
    ClaimPage page =
        new ClaimPage(
            "recon_difference",
            "idx_recon_difference_due",
            DUE,
            (ps, i) -> {
              ps.setObject(i++, ts(now));
              ps.setObject(i++, ts(now));
              ps.setInt(i++, limit);
              return i;
            },
            "lease_owner = ?, lease_until = ?, version = version + 1, updated_at = ?",
            (ps, i) -> {
              ps.setString(i++, owner);
              ps.setObject(i++, ts(leaseUntil));
              ps.setObject(i++, ts(now));
              return i;
            },
            DifferenceRows.COLUMNS);
    List<RecordedDifference> rows =
        new ArrayList<>(dialect.claimPage(c, page, DifferenceRows::map));
    rows.sort(
        Comparator.comparing(RecordedDifference::actionableAt)
            .thenComparingLong(RecordedDifference::id));
    return rows;
  }

  /** {@code n} comma-separated placeholders, for an IN list. */
  static String placeholders(int n) {
    return String.join(", ", Collections.nCopies(n, "?"));
  }
}
