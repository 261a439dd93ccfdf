package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.store.review.AuditEntry;
import dev.clearway.store.review.HistoryEntry;
import dev.clearway.store.review.ManualCommand;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import javax.sql.DataSource;

/**
 * What people read in manual review: the queue of escalated and frozen flows, and one flow's
 * transitions, commands and audit trail. Every list is one page, newest first by id: at most {@code
 * limit} rows with an id below {@code beforeId} (the id of the last row of the previous page, or
 * {@link Long#MAX_VALUE} for the first). Each statement reads an index that serves its filter and
 * its order: {@code idx_pay_flow_review_queue} (one merchant's page filters the facts joined to
 * it), {@code idx_history_flow}, {@code idx_command_flow}, {@code idx_audit_flow}. The queue reads
 * the flow's two tables joined by id ({@link FlowReads#SHARDED_ROWS}), not the view, on every
 * database: a sharding driver routes the join (to every shard for the queue, merging the pages).
 */
public final class JdbcReviewQueries {
  private final Sql sql;

  public JdbcReviewQueries(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** Flows a person must look at (escalated or frozen), of every merchant. */
  public List<PayFlow> queue(long beforeId, int limit) {
    return sql.query(
        "SELECT "
            + FLOW_COLUMNS
            + " FROM "
            + FlowReads.SHARDED_ROWS
            + "\n"
            + """
            WHERE review_state <> 'NONE' AND id < ?
            ORDER BY id DESC
            LIMIT ?
            """,
        ps -> {
          ps.setLong(1, beforeId);
          ps.setInt(2, limit);
        },
        FlowRows::map);
  }

  /** {@link #queue} of one merchant's flows. */
  public List<PayFlow> queueOf(String merchant, long beforeId, int limit) {
    return sql.query(
        "SELECT "
            + FLOW_COLUMNS
            + " FROM "
            + FlowReads.SHARDED_ROWS
            + "\n"
            + """
            WHERE review_state <> 'NONE' AND merchant_id = ? AND id < ?
            ORDER BY id DESC
            LIMIT ?
            """,
        ps -> {
          ps.setString(1, merchant);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        FlowRows::map);
  }

  /**
   * A flow's transitions: the timeline a person reads. The live table and the archive are read by
   * one statement each, both naming the flow, and merged here by id: a UNION of the two is routed
   * by a sharding driver to every pair of their physical tables, each statement alone to the
   * flow's.
   */
  public List<HistoryEntry> history(long flowId, long beforeId, int limit) {
    List<HistoryEntry> page =
        new ArrayList<>(historyOf("pay_flow_history", flowId, beforeId, limit));
    page.addAll(historyOf("pay_flow_history_archive", flowId, beforeId, limit));
    page.sort(Comparator.comparingLong(HistoryEntry::id).reversed());
    return List.copyOf(page.subList(0, Math.min(limit, page.size())));
  }

  private List<HistoryEntry> historyOf(String table, long flowId, long beforeId, int limit) {
    return sql.query(
        """
        SELECT id, from_status, to_status, version, trigger_source, request_id, result_class,
               error_code, elapsed_ms, created_at
          FROM %s
         WHERE flow_id = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """
            .formatted(table),
        ps -> {
          ps.setLong(1, flowId);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        JdbcReviewQueries::historyEntry);
  }

  /** A flow's manual commands, whatever their state. */
  public List<ManualCommand> commands(long flowId, long beforeId, int limit) {
    return sql.query(
        """
        SELECT * FROM manual_command
         WHERE flow_id = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, flowId);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        JdbcReviewStore::command);
  }

  /** Every proposal, approval, rejection and failure about a flow. */
  public List<AuditEntry> audit(long flowId, long beforeId, int limit) {
    return sql.query(
        """
        SELECT id, command_id, flow_id, actor_id, role, action, detail, at
          FROM manual_audit
         WHERE flow_id = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, flowId);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        rs ->
            new AuditEntry(
                rs.getLong("id"),
                rs.getLong("command_id"),
                rs.getLong("flow_id"),
                rs.getString("actor_id"),
                rs.getString("role"),
                rs.getString("action"),
                rs.getString("detail"),
                FlowRows.instant(rs, "at")));
  }

  /** A history row read with the columns of {@link #history}, in that order. */
  static HistoryEntry historyEntry(ResultSet rs) throws SQLException {
    return new HistoryEntry(
        rs.getLong("id"),
        rs.getString("from_status"),
        rs.getString("to_status"),
        rs.getLong("version"),
        rs.getString("trigger_source"),
        rs.getString("request_id"),
        rs.getString("result_class"),
        rs.getString("error_code"),
        rs.getLong("elapsed_ms"),
        FlowRows.instant(rs, "created_at"));
  }
}
