package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.TicketAudit;
import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * What people read of reconciliation: differences with filters (newest first by id, paged by the id
 * before which a page starts), one difference's history, statement line, commands and audit, and
 * the open differences by class. Every list reads one row more than a page, so the caller knows
 * whether a next page exists.
 */
public final class JdbcReconQueries {
  private static final String DIFFERENCE_COLUMNS = DifferenceRows.COLUMNS + " ";

  private final Sql sql;

  public JdbcReconQueries(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** Differences matching {@code filter} with an id below {@code beforeId}, newest first. */
  public List<RecordedDifference> differences(DifferenceFilter filter, long beforeId, int limit) {
    return sql.query(
        "SELECT "
            + DIFFERENCE_COLUMNS
            + """
              FROM recon_difference
             WHERE id < ?
               AND (? IS NULL OR account_ref = ?)
               AND (? IS NULL OR kind = ?)
               AND (? IS NULL OR state = ?)
               AND (? IS NULL OR confidence = ?)
             ORDER BY id DESC
             LIMIT ?
            """,
        ps -> {
          String kind = filter.kind() == null ? null : filter.kind().name();
          String state = filter.state() == null ? null : filter.state().name();
          String confidence = filter.confidence() == null ? null : filter.confidence().name();
          ps.setLong(1, beforeId);
          ps.setString(2, filter.account());
          ps.setString(3, filter.account());
          ps.setString(4, kind);
          ps.setString(5, kind);
          ps.setString(6, state);
          ps.setString(7, state);
          ps.setString(8, confidence);
          ps.setString(9, confidence);
          ps.setInt(10, limit);
        },
        JdbcReconQueries::difference);
  }

  public Optional<RecordedDifference> difference(long id) {
    return sql
        .query(
            "SELECT " + DIFFERENCE_COLUMNS + " FROM recon_difference WHERE id = ?",
            ps -> ps.setLong(1, id),
            JdbcReconQueries::difference)
        .stream()
        .findFirst();
  }

  /** A difference's state moves, oldest first (at most {@code limit}). */
  public List<DifferenceMove> history(long differenceId, int limit) {
    return sql.query(
        """
        SELECT id, from_state, to_state, version, actor, detail, at
          FROM recon_difference_history
         WHERE difference_id = ?
         ORDER BY id
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, differenceId);
          ps.setInt(2, limit);
        },
        rs ->
            new DifferenceMove(
                rs.getLong("id"),
                rs.getString("from_state"),
                rs.getString("to_state"),
                rs.getLong("version"),
                rs.getString("actor"),
                rs.getString("detail"),
                TicketRows.instant(rs, "at")));
  }

  /** The parsed columns of one statement line. */
  public Optional<StatementLineEvidence> statementLine(long fileId, long lineNo) {
    return sql
        .query(
            """
            SELECT file_id, line_no, kind, trade_order_no, refund_order_no, attempt_key,
                   psp_reference, amount, fee, currency, at
              FROM statement_line
             WHERE file_id = ? AND line_no = ?
            """,
            ps -> {
              ps.setLong(1, fileId);
              ps.setLong(2, lineNo);
            },
            rs ->
                new StatementLineEvidence(
                    rs.getLong("file_id"),
                    rs.getLong("line_no"),
                    rs.getString("kind"),
                    rs.getString("trade_order_no"),
                    rs.getString("refund_order_no"),
                    rs.getString("attempt_key"),
                    rs.getString("psp_reference"),
                    rs.getObject("amount", Long.class),
                    rs.getObject("fee", Long.class),
                    rs.getString("currency"),
                    TicketRows.instant(rs, "at")))
        .stream()
        .findFirst();
  }

  /** A difference's ticket commands with an id below {@code beforeId}, newest first. */
  public List<TicketCommand> commands(long differenceId, long beforeId, int limit) {
    return sql.query(
        """
        SELECT * FROM recon_command
         WHERE difference_id = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, differenceId);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        TicketRows::command);
  }

  /** A difference's audit trail with an id below {@code beforeId}, newest first. */
  public List<TicketAudit> audit(long differenceId, long beforeId, int limit) {
    return sql.query(
        """
        SELECT * FROM recon_audit
         WHERE difference_id = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, differenceId);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        TicketRows::audit);
  }

  /** The differences not yet RESOLVED, by class and currency, the classes in name order. */
  public List<OpenDifferences> openByClass() {
    return sql.query(
        """
        SELECT kind, currency, count(*) AS n,
               COALESCE(sum(abs(COALESCE(statement_amount, local_amount, 0))), 0) AS amount,
               min(created_at) AS oldest
          FROM recon_difference
         WHERE state <> 'RESOLVED'
         GROUP BY kind, currency
         ORDER BY kind, currency
        """,
        ps -> {},
        rs ->
            new OpenDifferences(
                DifferenceClass.valueOf(rs.getString("kind")),
                rs.getString("currency"),
                rs.getLong("n"),
                rs.getLong("amount"),
                TicketRows.instant(rs, "oldest")));
  }

  /** How many differences wait for a person. */
  public long waitingForPerson() {
    return sql.query(
            "SELECT count(*) FROM recon_difference WHERE state = ?",
            ps -> ps.setString(1, DifferenceState.NEEDS_PERSON.name()),
            rs -> rs.getLong(1))
        .get(0);
  }

  /** When the oldest difference not yet RESOLVED was found, if any is open. */
  public Optional<Instant> oldestOpen() {
    return sql.query(
            "SELECT min(created_at) AS oldest FROM recon_difference WHERE state <> 'RESOLVED'",
            ps -> {},
            rs -> Optional.ofNullable(TicketRows.instant(rs, "oldest")))
        .get(0);
  }

  static RecordedDifference difference(ResultSet rs) throws SQLException {
    return DifferenceRows.map(rs);
  }

  /** The evidence of both sides as recorded when the difference was found (JSON, no secrets). */
  public Optional<String> evidence(long id) {
    return sql
        .query(
            "SELECT evidence FROM recon_difference WHERE id = ?",
            ps -> ps.setLong(1, id),
            rs -> rs.getString("evidence"))
        .stream()
        .findFirst();
  }
}
