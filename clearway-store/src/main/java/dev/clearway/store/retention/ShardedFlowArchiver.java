package dev.clearway.store.retention;

import static dev.clearway.store.Sql.ts;

import dev.clearway.store.FlowReads;
import dev.clearway.store.ShardBits;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * The flow archive through a sharding driver, shard by shard. The page of ended flows is read over
 * every shard; its flows are grouped by the shard their ids name, and each group moves in a
 * transaction of its own, whose writes reach that shard's database only (the driver broadcasts the
 * archiving flag's {@code SET} to every database; the two reads of the first database, late-charge
 * checks and proposed commands, are plain reads). Within it the flows are locked again with their
 * conditions, the group's remaining work is looked up by one statement per kind of work that the
 * driver routes to the group's shard (its refunds by the flows' ids, its attempts joined with their
 * tasks and compensations, binding tables, by their trade order numbers), and the rows are copied
 * to the archive tables as values in one batch per table (the driver refuses {@code INSERT …
 * SELECT} between tables that are not bound), then deleted.
 */
final class ShardedFlowArchiver {

  private static final String TERMINAL = "('PAY_FAIL', 'BIZ_SUCCESS', 'REFUNDED', 'CLOSED')";
  private static final String ENDED =
      " WHERE status IN " + TERMINAL + " AND updated_at < ? AND review_state = 'NONE'";

  /**
   * What keeps a locked flow out of the archive: the flow ids these find among a group's ({@code
   * %s}: the group's ids), each statement reaching the group's shard or the first database.
   */
  private static final List<String> BY_FLOW =
      List.of(
          "SELECT DISTINCT flow_id FROM refund_order WHERE flow_id IN %s",
          "SELECT DISTINCT flow_id FROM late_charge_check WHERE flow_id IN %s",
          "SELECT DISTINCT flow_id FROM manual_command WHERE flow_id IN %s AND state = 'PROPOSED'");

  /** The same by the group's trade order numbers: attempts, binding tables routed by the number. */
  private static final List<String> BY_ORDER =
      List.of(
          "SELECT DISTINCT trade_order_no FROM payment_attempt WHERE trade_order_no IN %s"
              + " AND status IN ('CREATED', 'PENDING', 'UNKNOWN')",
          "SELECT DISTINCT a.trade_order_no FROM payment_attempt a"
              + " JOIN recovery_task t ON t.attempt_id = a.id"
              + " WHERE a.trade_order_no IN %s AND t.status IN ('READY', 'LEASED', 'MANUAL')",
          "SELECT DISTINCT a.trade_order_no FROM payment_attempt a"
              + " JOIN attempt_compensation k ON k.attempt_id = a.id"
              + " WHERE a.trade_order_no IN %s AND k.status IN ('PENDING', 'MANUAL')");

  private final DataSource dataSource;

  ShardedFlowArchiver(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Pages of candidates read per batch at most: flows kept by their work are read past. */
  private static final int MAX_PAGES = 10;

  /**
   * Moves at most {@code limit} flows that ended before {@code endedBefore}; returns how many. A
   * page whose flows are kept (a refund, an open attempt) is read past by the cursor {@code
   * (updated_at, id)}, so flows kept for ever at the head of the order do not stop the archive.
   */
  int moveBatch(Instant endedBefore, int limit) {
    try {
      int moved = 0;
      Object[] cursor = null;
      for (int page = 0; page < MAX_PAGES && moved < limit; page++) {
        int wanted = limit - moved;
        List<Object[]> candidates = page(endedBefore, cursor, wanted);
        Map<Integer, List<Long>> byShard = new TreeMap<>();
        for (Object[] flow : candidates) {
          long id = (Long) flow[1];
          byShard.computeIfAbsent(ShardBits.of(id), s -> new ArrayList<>()).add(id);
        }
        for (List<Long> group : byShard.values()) {
          moved += Sql.inTransaction(dataSource, c -> moveGroup(c, group, endedBefore));
        }
        if (candidates.size() < wanted) {
          break;
        }
        cursor = candidates.get(candidates.size() - 1);
      }
      return moved;
    } catch (SQLException e) {
      throw new IllegalStateException("archive flows: " + e.getMessage(), e);
    }
  }

  /** Ended flows after {@code cursor} (their end time and id), oldest first, over every shard. */
  private List<Object[]> page(Instant endedBefore, Object[] cursor, int limit) throws SQLException {
    String after = cursor == null ? "" : " AND (updated_at > ? OR (updated_at = ? AND id > ?))";
    return Sql.inTransaction(
        dataSource,
        c -> {
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT updated_at, id FROM "
                      + FlowReads.SHARDED_ROWS
                      + ENDED
                      + after
                      + " ORDER BY updated_at, id LIMIT ?")) {
            int i = 1;
            ps.setObject(i++, ts(endedBefore));
            if (cursor != null) {
              ps.setObject(i++, cursor[0]);
              ps.setObject(i++, cursor[0]);
              ps.setLong(i++, (Long) cursor[1]);
            }
            ps.setInt(i, limit);
            List<Object[]> found = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                found.add(new Object[] {rs.getObject(1), rs.getLong(2)});
              }
            }
            return found;
          }
        });
  }

  private static int moveGroup(Connection c, List<Long> group, Instant endedBefore)
      throws SQLException {
    List<String[]> locked = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, trade_order_no FROM "
                + FlowReads.SHARDED_ROWS
                + ENDED
                + " AND id IN "
                + marks(group.size())
                + " FOR UPDATE SKIP LOCKED")) {
      ps.setObject(1, ts(endedBefore));
      for (int i = 0; i < group.size(); i++) {
        ps.setLong(i + 2, group.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          locked.add(new String[] {rs.getString(1), rs.getString(2)});
        }
      }
    }
    Set<Long> kept = kept(c, locked);
    List<Long> ids = new ArrayList<>();
    for (String[] flow : locked) {
      long id = Long.parseLong(flow[0]);
      if (!kept.contains(id)) {
        ids.add(id);
      }
    }
    if (ids.isEmpty()) {
      return 0;
    }
    try (Statement st = c.createStatement()) {
      st.execute("SET @clearway_archiving = 'on'");
      try {
        move(c, ids);
      } finally {
        st.execute("SET @clearway_archiving = NULL");
      }
    }
    return ids.size();
  }

  /** The ids among the locked flows (id, trade order number) that their remaining work keeps. */
  private static Set<Long> kept(Connection c, List<String[]> locked) throws SQLException {
    Set<Long> kept = new HashSet<>();
    if (locked.isEmpty()) {
      return kept;
    }
    List<Object> ids = new ArrayList<>();
    Map<String, Long> byOrder = new HashMap<>();
    for (String[] flow : locked) {
      long id = Long.parseLong(flow[0]);
      ids.add(id);
      if (flow[1] != null) {
        byOrder.put(flow[1], id);
      }
    }
    for (String sql : BY_FLOW) {
      for (String id : found(c, sql, ids)) {
        kept.add(Long.parseLong(id));
      }
    }
    if (!byOrder.isEmpty()) {
      List<Object> orders = new ArrayList<>(byOrder.keySet());
      for (String sql : BY_ORDER) {
        for (String order : found(c, sql, orders)) {
          kept.add(byOrder.get(order));
        }
      }
    }
    return kept;
  }

  /** The first column of {@code template} with its {@code IN %s} bound to {@code keys}. */
  private static List<String> found(Connection c, String template, List<Object> keys)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(String.format(template, marks(keys.size())))) {
      for (int i = 0; i < keys.size(); i++) {
        ps.setObject(i + 1, keys.get(i));
      }
      List<String> values = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          values.add(rs.getString(1));
        }
      }
      return values;
    }
  }

  /** Copies, then deletes: the history first and the facts last (the state refers to them). */
  private static void move(Connection c, List<Long> ids) throws SQLException {
    String in = marks(ids.size());
    List<String> flowColumns = columns(c, "pay_flow_archive");
    List<String> historyColumns = columns(c, "pay_flow_history_archive");
    int flows =
        copy(
            c,
            "SELECT " + String.join(", ", flowColumns) + " FROM " + FlowReads.SHARDED_ROWS,
            "id IN " + in,
            "pay_flow_archive",
            flowColumns,
            ids);
    requireAll(flows, ids.size(), "archive copies of flows " + ids);
    int history =
        copy(
            c,
            "SELECT " + String.join(", ", historyColumns) + " FROM pay_flow_history",
            "flow_id IN " + in,
            "pay_flow_history_archive",
            historyColumns,
            ids);
    requireAll(
        run(c, "DELETE FROM pay_flow_history WHERE flow_id IN " + in, ids),
        history,
        "history of flows " + ids);
    requireAll(run(c, "DELETE FROM pay_flow_state WHERE id IN " + in, ids), ids.size(), "states");
    requireAll(run(c, "DELETE FROM pay_flow_fact WHERE id IN " + in, ids), ids.size(), "facts");
  }

  /** The rows {@code select … WHERE where} finds, inserted into {@code table}; how many. */
  private static int copy(
      Connection c, String select, String where, String table, List<String> columns, List<Long> ids)
      throws SQLException {
    int copied = 0;
    try (PreparedStatement read = c.prepareStatement(select + " WHERE " + where);
        PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO "
                    + table
                    + " ("
                    + String.join(", ", columns)
                    + ") VALUES "
                    + marks(columns.size()))) {
      for (int i = 0; i < ids.size(); i++) {
        read.setLong(i + 1, ids.get(i));
      }
      try (ResultSet rs = read.executeQuery()) {
        while (rs.next()) {
          for (int i = 1; i <= columns.size(); i++) {
            insert.setObject(i, rs.getObject(i));
          }
          insert.addBatch();
          copied++;
        }
      }
      if (copied > 0) {
        for (int count : insert.executeBatch()) {
          if (count != 1 && count != Statement.SUCCESS_NO_INFO) {
            throw new SQLException("archive copy into " + table + ": a row not inserted");
          }
        }
      }
    }
    return copied;
  }

  /** The columns of {@code table}, read from an empty result through the driver. */
  private static List<String> columns(Connection c, String table) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + table + " WHERE 1 = 0");
        ResultSet rs = ps.executeQuery()) {
      ResultSetMetaData meta = rs.getMetaData();
      List<String> names = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        names.add(meta.getColumnLabel(i));
      }
      return names;
    }
  }

  private static int run(Connection c, String sql, List<Long> ids) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < ids.size(); i++) {
        ps.setLong(i + 1, ids.get(i));
      }
      return ps.executeUpdate();
    }
  }

  private static String marks(int n) {
    return "(" + String.join(", ", Collections.nCopies(n, "?")) + ")";
  }

  private static void requireAll(int rows, int expected, String what) throws SQLException {
    if (rows != expected) {
      throw new SQLException(what + ": " + rows + " rows, expected " + expected);
    }
  }
}
