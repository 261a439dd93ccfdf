package dev.clearway.lab.chaos;

import dev.clearway.core.flow.domain.FlowStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * What the database says at the end of a run: every flow and every history row, hot or archived.
 */
public record FlowSnapshot(List<FlowRow> flows, List<HistoryRow> history) {

  public record FlowRow(
      long flowId,
      String merchantId,
      long userId,
      String scene,
      String bizKey,
      int attemptNo,
      String tradeOrderNo,
      String refundOrderNo,
      String status,
      long version,
      long amount,
      String reviewState,
      String reviewReason) {

    public boolean manualReview() {
      return !"NONE".equals(reviewState);
    }

    public String goalId() {
      return merchantId + "/" + userId + "/" + scene + "/" + bizKey;
    }
  }

  public record HistoryRow(long flowId, String fromStatus, String toStatus, long version) {}

  /**
   * The flow's columns, read from its two tables joined rather than the view {@code pay_flow}: a
   * sharded database has no view, and the two tables are bound, so the join runs once per physical
   * pair.
   */
  private static final String HOT_FLOWS =
      "SELECT id, merchant_id, user_id, scene, biz_key, attempt_no, trade_order_no,"
          + " refund_order_no, status, version, amount, review_state, review_reason"
          + " FROM pay_flow_fact JOIN pay_flow_state USING (id) ORDER BY id";

  private static final String ARCHIVED_FLOWS =
      "SELECT id, merchant_id, user_id, scene, biz_key, attempt_no, trade_order_no,"
          + " refund_order_no, status, version, amount, review_state, review_reason"
          + " FROM pay_flow_archive ORDER BY id";

  private static final String HOT_HISTORY =
      "SELECT flow_id, from_status, to_status, version, id FROM pay_flow_history"
          + " ORDER BY flow_id, version, id";

  private static final String ARCHIVED_HISTORY =
      "SELECT flow_id, from_status, to_status, version, id FROM pay_flow_history_archive"
          + " ORDER BY flow_id, version, id";

  /**
   * Every flow and history row, hot then archived, merged in Java: one statement per table, so that
   * a sharded database runs each on every shard and merges it by its ORDER BY (a UNION of two
   * sharded tables would run on every combination of their physical tables).
   */
  public static FlowSnapshot read(DataSource ds) {
    List<FlowRow> flows = new ArrayList<>();
    List<HistoryRow> history = new ArrayList<>();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      for (String sql : List.of(HOT_FLOWS, ARCHIVED_FLOWS)) {
        try (ResultSet rs = st.executeQuery(sql)) {
          while (rs.next()) {
            flows.add(flow(rs));
          }
        }
      }
      for (String sql : List.of(HOT_HISTORY, ARCHIVED_HISTORY)) {
        try (ResultSet rs = st.executeQuery(sql)) {
          while (rs.next()) {
            history.add(
                new HistoryRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4)));
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("read snapshot", e);
    }
    // A flow is hot or archived, never both: sorting keeps each flow's history in its order.
    flows.sort(Comparator.comparingLong(FlowRow::flowId));
    history.sort(
        Comparator.comparingLong(HistoryRow::flowId).thenComparingLong(HistoryRow::version));
    return new FlowSnapshot(flows, history);
  }

  private static FlowRow flow(ResultSet rs) throws SQLException {
    return new FlowRow(
        rs.getLong(1),
        rs.getString(2),
        rs.getLong(3),
        rs.getString(4),
        rs.getString(5),
        rs.getInt(6),
        rs.getString(7),
        rs.getString(8),
        rs.getString(9),
        rs.getLong(10),
        rs.getLong(11),
        rs.getString(12),
        rs.getString(13));
  }

  /** Flows neither terminal nor in manual review: the state table alone knows. */
  public static int unconverged(DataSource ds) {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM pay_flow_state WHERE status IN"
                    + " ('WAIT_PAY','PAYING','PAYED','REFUNDING') AND review_state = 'NONE'")) {
      rs.next();
      return rs.getInt(1);
    } catch (SQLException e) {
      throw new IllegalStateException("count unconverged", e);
    }
  }

  /**
   * Flows by status, plus "open" (neither terminal nor in review) and "review" (in manual review).
   */
  public static Map<String, Integer> countByStatus(DataSource ds) {
    Map<String, Integer> counts = new TreeMap<>();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      for (String table : List.of("pay_flow_state", "pay_flow_archive")) {
        try (ResultSet rs =
            st.executeQuery(
                "SELECT status, review_state, count(*) FROM "
                    + table
                    + " GROUP BY status, review_state")) {
          while (rs.next()) {
            count(counts, rs.getString(1), !"NONE".equals(rs.getString(2)), rs.getInt(3));
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("count by status", e);
    }
    return counts;
  }

  private static void count(Map<String, Integer> counts, String status, boolean review, int n) {
    counts.merge(status, n, Integer::sum);
    if (review) {
      counts.merge("review", n, Integer::sum);
    } else if (!FlowStatus.valueOf(status).isTerminal()) {
      counts.merge("open", n, Integer::sum);
    }
  }
}
