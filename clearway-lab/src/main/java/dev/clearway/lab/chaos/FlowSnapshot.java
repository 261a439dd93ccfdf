package dev.clearway.lab.chaos;

import dev.clearway.core.flow.domain.FlowStatus;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
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

  public static FlowSnapshot read(DataSource ds) {
    List<FlowRow> flows = new ArrayList<>();
    List<HistoryRow> history = new ArrayList<>();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      try (ResultSet rs =
          st.executeQuery(
              "SELECT id, merchant_id, user_id, scene, biz_key, attempt_no, trade_order_no, refund_order_no,"
                  + " status, version, amount, review_state, review_reason FROM pay_flow"
                  + " UNION ALL SELECT id, merchant_id, user_id, scene, biz_key, attempt_no,"
                  + " trade_order_no, refund_order_no, status, version, amount, review_state,"
                  + " review_reason FROM pay_flow_archive ORDER BY id")) {
        while (rs.next()) {
          flows.add(
              new FlowRow(
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
                  rs.getString(13)));
        }
      }
      try (ResultSet rs =
          st.executeQuery(
              "SELECT flow_id, from_status, to_status, version, id FROM pay_flow_history"
                  + " UNION ALL SELECT flow_id, from_status, to_status, version, id"
                  + " FROM pay_flow_history_archive ORDER BY 1, 4, 5")) {
        while (rs.next()) {
          history.add(
              new HistoryRow(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getLong(4)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("read snapshot", e);
    }
    return new FlowSnapshot(flows, history);
  }

  /** Flows neither terminal nor in manual review. */
  public static int unconverged(DataSource ds) {
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM pay_flow WHERE status IN"
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
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT status, review_state <> 'NONE', count(*) FROM (SELECT status,"
                    + " review_state FROM pay_flow UNION ALL SELECT status, review_state"
                    + " FROM pay_flow_archive) f GROUP BY 1, 2")) {
      while (rs.next()) {
        String status = rs.getString(1);
        boolean review = rs.getBoolean(2);
        int n = rs.getInt(3);
        counts.merge(status, n, Integer::sum);
        boolean terminal = FlowStatus.valueOf(status).isTerminal();
        if (review) {
          counts.merge("review", n, Integer::sum);
        } else if (!terminal) {
          counts.merge("open", n, Integer::sum);
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("count by status", e);
    }
    return counts;
  }
}
