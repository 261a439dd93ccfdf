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
import java.util.Collections;
import java.util.List;
import javax.sql.DataSource;

/**
 * The flow archive on the MySQL family, which has neither data-modifying CTEs nor {@code
 * RETURNING}, and whose view {@code pay_flow} is for reading: one transaction per batch, a locking
 * read ({@code FOR UPDATE SKIP LOCKED}) of the archivable flows ({@link FlowArchiver#ARCHIVABLE}),
 * their rows and history copied to the archive tables, then deleted from the flow's own tables
 * (history, state, facts). The guard triggers let a state row be deleted only when terminal, and a
 * fact only once its state is gone, and both only while the session says {@code SET
 * @clearway_archiving = 'on'}; the family has no transaction-local setting, so the flag is cleared
 * before the connection goes back to the pool, whatever happened.
 */
final class MysqlFlowArchiver {

  private final DataSource dataSource;
  private volatile String[] copies;

  MysqlFlowArchiver(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Moves at most {@code limit} flows that ended before {@code endedBefore}; returns how many. */
  int moveBatch(Instant endedBefore, int limit) {
    try {
      return Sql.inTransaction(
          dataSource,
          c -> {
            try (Statement st = c.createStatement()) {
              st.execute("SET @clearway_archiving = 'on'");
              try {
                return move(c, endedBefore, limit);
              } finally {
                st.execute("SET @clearway_archiving = NULL");
              }
            }
          });
    } catch (SQLException e) {
      throw new IllegalStateException("archive flows: " + e.getMessage(), e);
    }
  }

  private int move(Connection c, Instant endedBefore, int limit) throws SQLException {
    List<Long> locked =
        ids(c, FlowArchiver.ARCHIVABLE + " FOR UPDATE SKIP LOCKED", endedBefore, limit, List.of());
    if (locked.isEmpty()) {
      return 0;
    }
    String in = "(" + String.join(", ", Collections.nCopies(locked.size(), "?")) + ")";
    // The conditions read again, by plain reads of the latest committed rows, for the flows now
    // locked: should SKIP LOCKED reach the subqueries' tables, a row another transaction holds (a
    // refund, an attempt being written) would have been skipped, not seen.
    List<Long> ids =
        ids(
            c,
            "SELECT id FROM (" + FlowArchiver.ARCHIVABLE + ") a WHERE id IN " + in,
            endedBefore,
            limit,
            locked);
    if (ids.isEmpty()) {
      return 0;
    }
    in = "(" + String.join(", ", Collections.nCopies(ids.size(), "?")) + ")";
    String[] copy = copies(c);
    // Copies first, while the rows are still there to read; then the deletes, history first and
    // the facts last (the state refers to them).
    requireAll(run(c, copy[0] + in, ids), ids, "archive copies");
    int history = run(c, copy[1] + in, ids);
    requireAll(run(c, "DELETE FROM pay_flow_history WHERE flow_id IN " + in, ids), history, ids);
    requireAll(run(c, "DELETE FROM pay_flow_state WHERE id IN " + in, ids), ids, "state rows");
    requireAll(run(c, "DELETE FROM pay_flow_fact WHERE id IN " + in, ids), ids, "fact rows");
    return ids.size();
  }

  /** The ids {@code select} finds, bound with the cutoff, the limit and then {@code ids}. */
  private static List<Long> ids(
      Connection c, String select, Instant endedBefore, int limit, List<Long> ids)
      throws SQLException {
    List<Long> found = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(select)) {
      ps.setObject(1, ts(endedBefore));
      ps.setInt(2, limit);
      for (int i = 0; i < ids.size(); i++) {
        ps.setLong(i + 3, ids.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.add(rs.getLong(1));
        }
      }
    }
    return found;
  }

  /** The two copy statements, each ending with {@code IN} and waiting for its id list. */
  private String[] copies(Connection c) throws SQLException {
    String[] s = copies;
    if (s == null) {
      String flows = FlowArchiver.columns(c, "pay_flow_archive", "DATABASE()");
      String history = FlowArchiver.columns(c, "pay_flow_history_archive", "DATABASE()");
      s =
          new String[] {
            "INSERT INTO pay_flow_archive (%1$s) SELECT %1$s FROM pay_flow WHERE id IN "
                .formatted(flows),
            "INSERT INTO pay_flow_history_archive (%1$s) SELECT %1$s FROM pay_flow_history"
                    .formatted(history)
                + " WHERE flow_id IN "
          };
      copies = s;
    }
    return s;
  }

  private static int run(Connection c, String sql, List<Long> ids) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < ids.size(); i++) {
        ps.setLong(i + 1, ids.get(i));
      }
      return ps.executeUpdate();
    }
  }

  private static void requireAll(int rows, List<Long> ids, String what) throws SQLException {
    if (rows != ids.size()) {
      throw new SQLException(what + ": " + rows + " rows for " + ids.size() + " flows " + ids);
    }
  }

  private static void requireAll(int deleted, int copied, List<Long> ids) throws SQLException {
    if (deleted != copied) {
      throw new SQLException(
          "history of flows " + ids + ": " + copied + " rows copied, " + deleted + " deleted");
    }
  }
}
