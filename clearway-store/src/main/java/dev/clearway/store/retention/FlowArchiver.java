package dev.clearway.store.retention;

import static dev.clearway.store.Sql.ts;

import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Moves terminal flows and their history to {@code pay_flow_archive} / {@code
 * pay_flow_history_archive}: one statement per batch (select with {@code FOR UPDATE SKIP LOCKED},
 * delete, insert into the archive), in its own transaction that says {@code SET LOCAL
 * clearway.archiving = 'on'} (the only way the guard trigger lets a terminal row be deleted). A
 * batch locks only the rows it moves, for as long as one statement takes.
 *
 * <p>A flow is moved only when nothing still works on it: no refund order or late-charge check
 * (they refer to it by key), no open manual command and no review mark, no attempt of its order
 * that is still open, no recovery task or compensation of its order that waits. The column lists
 * are read from the archive tables, so a column the hot table has and the archive lacks fails the
 * move instead of being dropped.
 */
final class FlowArchiver {
  private static final String TERMINAL = "('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED')";

  /**
   * The archivable flows, oldest end first: terminal, ended before the first parameter, with
   * nothing that still works on them; at most the second parameter of them. The caller adds its
   * locking clause.
   */
  static final String ARCHIVABLE =
      """
      SELECT f.id FROM pay_flow f
       WHERE f.status IN %1$s AND f.updated_at < ? AND f.review_state = 'NONE'
         AND NOT EXISTS (SELECT 1 FROM refund_order r WHERE r.flow_id = f.id)
         AND NOT EXISTS (SELECT 1 FROM late_charge_check l WHERE l.flow_id = f.id)
         AND NOT EXISTS (SELECT 1 FROM manual_command m
                          WHERE m.flow_id = f.id AND m.state = 'PROPOSED')
         AND NOT EXISTS (SELECT 1 FROM payment_attempt a
                          WHERE a.trade_order_no = f.trade_order_no
                            AND (a.status IN ('CREATED', 'PENDING', 'UNKNOWN')
                                 OR EXISTS (SELECT 1 FROM recovery_task t
                                             WHERE t.attempt_id = a.id
                                               AND t.status IN ('READY', 'LEASED', 'MANUAL'))
                                 OR EXISTS (SELECT 1 FROM attempt_compensation k
                                             WHERE k.attempt_id = a.id
                                               AND k.status IN ('PENDING', 'MANUAL'))))
       ORDER BY f.updated_at, f.id
       LIMIT ?
      """
          .formatted(TERMINAL);

  private final DataSource dataSource;
  private volatile String statement;

  FlowArchiver(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Moves at most {@code limit} flows that ended before {@code endedBefore}; returns how many. */
  int moveBatch(Instant endedBefore, int limit) {
    try {
      return Sql.inTransaction(
          dataSource,
          c -> {
            try (Statement st = c.createStatement()) {
              st.execute("SET LOCAL clearway.archiving = 'on'");
            }
            try (PreparedStatement ps = c.prepareStatement(statement(c))) {
              ps.setObject(1, ts(endedBefore));
              ps.setInt(2, limit);
              try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
              }
            }
          });
    } catch (SQLException e) {
      throw new IllegalStateException("archive flows: " + e.getMessage(), e);
    }
  }

  private String statement(Connection c) throws SQLException {
    String s = statement;
    if (s == null) {
      s = build(columns(c, "pay_flow_archive"), columns(c, "pay_flow_history_archive"));
      statement = s;
    }
    return s;
  }

  private static String build(String flowColumns, String historyColumns) {
    return """
        WITH picked AS (
          %1$s
             FOR UPDATE OF f SKIP LOCKED),
        moved AS (
          DELETE FROM pay_flow f USING picked p WHERE f.id = p.id RETURNING f.*),
        flows AS (
          INSERT INTO pay_flow_archive (%2$s) SELECT %2$s FROM moved RETURNING id),
        history AS (
          DELETE FROM pay_flow_history h USING moved m WHERE h.flow_id = m.id RETURNING h.*),
        history_in AS (
          INSERT INTO pay_flow_history_archive (%3$s) SELECT %3$s FROM history RETURNING id)
        SELECT (SELECT count(*) FROM flows), (SELECT count(*) FROM history_in)
        """
        .formatted(ARCHIVABLE, flowColumns, historyColumns);
  }

  private static String columns(Connection c, String table) throws SQLException {
    return columns(c, table, "current_schema()");
  }

  /**
   * The column list of {@code table} in the schema {@code schema} names (an SQL expression: each
   * database has its own function for the current one).
   */
  static String columns(Connection c, String table, String schema) throws SQLException {
    List<String> names = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT column_name FROM information_schema.columns"
                + " WHERE table_schema = "
                + schema
                + " AND table_name = ? ORDER BY ordinal_position")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          names.add(rs.getString(1));
        }
      }
    }
    if (names.isEmpty()) {
      throw new SQLException(table + " does not exist (migration V28 not applied)");
    }
    return String.join(", ", names);
  }
}
