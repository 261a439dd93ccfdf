package dev.clearway.store;

import dev.clearway.store.review.HistoryEntry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Read-only queries of the ops console. The lists are pages, newest first by id: at most {@code
 * limit} rows with an id below {@code beforeId} (the id of the last row of the previous page, or
 * {@link Long#MAX_VALUE} for the first), each read through an index that serves its filter and its
 * order.
 */
public final class JdbcOpsQueries {
  private final Sql sql;

  public JdbcOpsQueries(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** A transition with the flow (and the flow's merchant) it belongs to. */
  public record Transition(long flowId, String merchantId, String bizKey, HistoryEntry entry) {}

  /** An after-sales or late-charge refund a person must look at (ABNORMAL). */
  public record AbnormalRefund(
      long refundId,
      long flowId,
      String merchantId,
      String refundNo,
      String kind,
      long amount,
      String currency,
      String lastErrorCode,
      int retryCount,
      Instant updatedAt) {}

  /**
   * Flows by status. A full count: fine for the console's few refreshes a minute on tables of
   * millions; the open states alone are cheap through the scan index (see the gauges).
   */
  public Map<String, Long> countByStatus() {
    return StatusCounts.read(sql, "SELECT status, count(*) FROM pay_flow_state GROUP BY status");
  }

  /** Refund orders by status. */
  public Map<String, Long> refundsByStatus() {
    return StatusCounts.read(sql, "SELECT status, count(*) FROM refund_order GROUP BY status");
  }

  /** Refunds of every merchant whose retry budget is spent (through idx_refund_abnormal). */
  public List<AbnormalRefund> abnormalRefunds(long beforeId, int limit) {
    return sql.query(
        """
        SELECT id, flow_id, merchant_id, refund_no, kind, amount, currency, last_error_code,
               retry_count, updated_at
          FROM refund_order
         WHERE status = 'ABNORMAL' AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, beforeId);
          ps.setInt(2, limit);
        },
        JdbcOpsQueries::abnormal);
  }

  /** {@link #abnormalRefunds} of one merchant (through idx_refund_abnormal_merchant). */
  public List<AbnormalRefund> abnormalRefundsOf(String merchant, long beforeId, int limit) {
    return sql.query(
        """
        SELECT id, flow_id, merchant_id, refund_no, kind, amount, currency, last_error_code,
               retry_count, updated_at
          FROM refund_order
         WHERE status = 'ABNORMAL' AND merchant_id = ? AND id < ?
         ORDER BY id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setString(1, merchant);
          ps.setLong(2, beforeId);
          ps.setInt(3, limit);
        },
        JdbcOpsQueries::abnormal);
  }

  /**
   * The transitions of all flows (through the primary key of pay_flow_history), each with its
   * flow's merchant. The page and the merchants are two statements: the history and the facts are
   * sharded apart (a join of the two would be routed to every pair of their physical tables), the
   * merchants are read by the page's flow ids, each routed to its shard.
   */
  public List<Transition> transitions(long beforeId, int limit) {
    List<Transition> page =
        sql.query(
            """
            SELECT id, flow_id, biz_key, from_status, to_status, version, trigger_source,
                   request_id, result_class, error_code, elapsed_ms, created_at
              FROM pay_flow_history
             WHERE id < ?
             ORDER BY id DESC
             LIMIT ?
            """,
            ps -> {
              ps.setLong(1, beforeId);
              ps.setInt(2, limit);
            },
            rs ->
                new Transition(
                    rs.getLong("flow_id"),
                    null,
                    rs.getString("biz_key"),
                    JdbcReviewQueries.historyEntry(rs)));
    Map<Long, String> merchants =
        FlowMerchants.of(sql, page.stream().map(Transition::flowId).toList());
    return page.stream()
        .map(t -> new Transition(t.flowId(), merchants.get(t.flowId()), t.bizKey(), t.entry()))
        .toList();
  }

  private static AbnormalRefund abnormal(ResultSet rs) throws SQLException {
    return new AbnormalRefund(
        rs.getLong("id"),
        rs.getLong("flow_id"),
        rs.getString("merchant_id"),
        rs.getString("refund_no"),
        rs.getString("kind"),
        rs.getLong("amount"),
        rs.getString("currency"),
        rs.getString("last_error_code"),
        rs.getInt("retry_count"),
        FlowRows.instant(rs, "updated_at"));
  }
}
