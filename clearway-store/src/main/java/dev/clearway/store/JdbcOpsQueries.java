package dev.clearway.store;

import dev.clearway.store.review.HistoryEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/** Read-only queries of the ops console. */
public final class JdbcOpsQueries {
  private final DataSource dataSource;

  public JdbcOpsQueries(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** A transition with the flow it belongs to. */
  public record Transition(long flowId, String bizKey, HistoryEntry entry) {}

  /**
   * Flows by status. A full count: fine for the console's few refreshes a minute on tables of
   * millions; the open states alone are cheap through the scan index (see the gauges).
   */
  public Map<String, Long> countByStatus() {
    Map<String, Long> counts = new TreeMap<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT status, count(*) FROM pay_flow GROUP BY status");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        counts.put(rs.getString(1), rs.getLong(2));
      }
    } catch (SQLException e) {
      throw new StoreException("count flows by status", e);
    }
    return counts;
  }

  /** An after-sales or late-charge refund a person must look at (ABNORMAL). */
  public record AbnormalRefund(
      long refundId,
      long flowId,
      String refundNo,
      String kind,
      long amount,
      String currency,
      String lastErrorCode,
      int retryCount,
      java.time.Instant updatedAt) {}

  /** Refund orders by status. */
  public Map<String, Long> refundsByStatus() {
    Map<String, Long> counts = new TreeMap<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT status, count(*) FROM refund_order GROUP BY status");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        counts.put(rs.getString(1), rs.getLong(2));
      }
    } catch (SQLException e) {
      throw new StoreException("count refunds by status", e);
    }
    return counts;
  }

  /** Refunds whose retry budget is spent (ABNORMAL), oldest first. */
  public List<AbnormalRefund> abnormalRefunds(int limit) {
    List<AbnormalRefund> list = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT id, flow_id, refund_no, kind, amount, currency, last_error_code,"
                    + " retry_count, updated_at FROM refund_order WHERE status = 'ABNORMAL'"
                    + " ORDER BY id LIMIT ?")) {
      ps.setInt(1, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          list.add(
              new AbnormalRefund(
                  rs.getLong(1),
                  rs.getLong(2),
                  rs.getString(3),
                  rs.getString(4),
                  rs.getLong(5),
                  rs.getString(6),
                  rs.getString(7),
                  rs.getInt(8),
                  FlowRows.instant(rs, "updated_at")));
        }
      }
    } catch (SQLException e) {
      throw new StoreException("abnormal refunds", e);
    }
    return list;
  }

  /** The latest transitions of all flows, newest first. */
  public List<Transition> recentTransitions(int limit) {
    List<Transition> list = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT flow_id, biz_key, from_status, to_status, version, trigger_source,"
                    + " request_id, result_class, error_code, elapsed_ms, created_at"
                    + " FROM pay_flow_history ORDER BY id DESC LIMIT ?")) {
      ps.setInt(1, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          list.add(
              new Transition(
                  rs.getLong(1),
                  rs.getString(2),
                  new HistoryEntry(
                      rs.getString(3),
                      rs.getString(4),
                      rs.getLong(5),
                      rs.getString(6),
                      rs.getString(7),
                      rs.getString(8),
                      rs.getString(9),
                      rs.getLong(10),
                      FlowRows.instant(rs, "created_at"))));
        }
      }
    } catch (SQLException e) {
      throw new StoreException("recent transitions", e);
    }
    return list;
  }
}
