package dev.clearway.store.reconciliation;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore.Mark;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Many settlement marks of distinct trade orders in one transaction and three statements, each with
 * the same effect as one mark: the rows of the batch are locked in trade order order; a trade order
 * without a row gets one (version 0) and its history row; a row whose status differs moves (version
 * + 1) with its history row naming the status it left (and the row's version-0 history row, if it
 * has none yet); a row already in the status is left alone. A trade order settled by an agreed
 * statement line first gets its row from that line. The marks travel as PostgreSQL arrays, unnested
 * server-side; the move is sent only when a locked row's status differs from its mark (never on a
 * payment's first settlement).
 */
final class SettlementBatch {
  private static final String MARKS =
      """
      WITH m AS (
        SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::bigint[], ?::bigint[], ?::bigint[],
                             ?::text[]::timestamptz[])
          AS t(trade_order_no, status, difference_id, statement_file_id, statement_line_no, at))
      """;
  private static final String LOCK =
      "SELECT trade_order_no, status FROM payment_settlement WHERE trade_order_no = ANY (?)"
          + " ORDER BY trade_order_no FOR UPDATE";
  private static final String INSERT =
      MARKS
          + """
          , added AS (
            INSERT INTO payment_settlement (trade_order_no, status, difference_id,
                   statement_file_id, statement_line_no, version, updated_at)
            SELECT trade_order_no, status, difference_id, statement_file_id, statement_line_no,
                   0, at
              FROM m
            ON CONFLICT (trade_order_no) DO NOTHING
            RETURNING trade_order_no, status, difference_id, statement_file_id,
                      statement_line_no, updated_at)
          INSERT INTO payment_settlement_history (trade_order_no, version, from_status,
                 to_status, difference_id, statement_file_id, statement_line_no, at)
          SELECT trade_order_no, 0, NULL, status, difference_id, statement_file_id,
                 statement_line_no, updated_at
            FROM added
          """;

  /**
   * {@code was} reads the row as it was before this statement (the rows are locked). A row leaving
   * version 0 gets its version-0 history row too, from the row as it was, unless it has one (a row
   * settled set-based has none until it first changes).
   */
  private static final String MOVE =
      MARKS
          + """
          , moved AS (
            UPDATE payment_settlement s
               SET status = m.status, difference_id = m.difference_id,
                   statement_file_id = m.statement_file_id,
                   statement_line_no = m.statement_line_no, version = s.version + 1,
                   updated_at = m.at
              FROM m, payment_settlement was
             WHERE s.trade_order_no = m.trade_order_no AND was.trade_order_no = s.trade_order_no
               AND s.status <> m.status
            RETURNING s.trade_order_no, s.version, was.status AS from_status, s.status,
                      s.difference_id, s.statement_file_id, s.statement_line_no, s.updated_at,
                      was.difference_id AS was_difference_id,
                      was.statement_file_id AS was_file_id,
                      was.statement_line_no AS was_line_no, was.updated_at AS was_at),
          first AS (
            INSERT INTO payment_settlement_history (trade_order_no, version, from_status,
                   to_status, difference_id, statement_file_id, statement_line_no, at)
            SELECT trade_order_no, 0, NULL, from_status, was_difference_id, was_file_id,
                   was_line_no, was_at
              FROM moved
             WHERE version = 1
            ON CONFLICT (trade_order_no, version) DO NOTHING)
          INSERT INTO payment_settlement_history (trade_order_no, version, from_status,
                 to_status, difference_id, statement_file_id, statement_line_no, at)
          SELECT trade_order_no, version, from_status, status, difference_id, statement_file_id,
                 statement_line_no, updated_at
            FROM moved
          """;

  private static final String STATUSES =
      "SELECT trade_order_no, status FROM payment_settlement_in_effect"
          + " WHERE trade_order_no = ANY (?)";

  /**
   * The rows of the trade orders settled by an agreed line and without a row yet, written from that
   * line as it settled them (SETTLED, version 0, no history row: the first change writes it), so
   * that a mark finds the status it changes in the row. In trade order order.
   */
  private static final String MATERIALIZE =
      """
      INSERT INTO payment_settlement (trade_order_no, status, difference_id, statement_file_id,
             statement_line_no, version, updated_at)
      SELECT trade_order_no, status, difference_id, statement_file_id, statement_line_no,
             version, updated_at
        FROM payment_settlement_agreed
       WHERE trade_order_no = ANY (?)
       ORDER BY trade_order_no
      ON CONFLICT (trade_order_no) DO NOTHING
      """;

  private SettlementBatch() {}

  /** Writes the marks in the caller's transaction; trade orders must be distinct. */
  static void mark(Connection c, List<Mark> marks) throws SQLException {
    int n = marks.size();
    String[] trades = new String[n];
    String[] statuses = new String[n];
    Long[] differences = new Long[n];
    Long[] files = new Long[n];
    Long[] lines = new Long[n];
    String[] ats = new String[n];
    for (int i = 0; i < n; i++) {
      Mark m = marks.get(i);
      trades[i] = m.tradeOrderNo();
      statuses[i] = m.status().name();
      differences[i] = m.differenceId();
      files[i] = m.statementFileId();
      lines[i] = m.statementLineNo();
      ats[i] = m.at().toString();
    }
    Array tradeArray = c.createArrayOf("varchar", trades);
    materialize(c, tradeArray);
    boolean moves = false;
    Map<String, String> marked = new HashMap<>();
    for (int i = 0; i < n; i++) {
      marked.put(trades[i], statuses[i]);
    }
    try (PreparedStatement ps = c.prepareStatement(LOCK)) {
      ps.setArray(1, tradeArray);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          moves |= !rs.getString(2).equals(marked.get(rs.getString(1)));
        }
      }
    }
    for (String sql : moves ? List.of(INSERT, MOVE) : List.of(INSERT)) {
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        ps.setArray(1, tradeArray);
        ps.setArray(2, c.createArrayOf("varchar", statuses));
        ps.setArray(3, c.createArrayOf("int8", differences));
        ps.setArray(4, c.createArrayOf("int8", files));
        ps.setArray(5, c.createArrayOf("int8", lines));
        ps.setArray(6, c.createArrayOf("text", ats));
        ps.executeUpdate();
      }
    }
  }

  /**
   * Writes the row of each of {@code trades} that an agreed line settles and that has none, in the
   * caller's transaction (see {@link #MATERIALIZE}).
   */
  static void materialize(Connection c, Array trades) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(MATERIALIZE)) {
      ps.setArray(1, trades);
      ps.executeUpdate();
    }
  }

  static Map<String, SettlementStatus> statuses(Connection c, Collection<String> tradeOrderNos)
      throws SQLException {
    Map<String, SettlementStatus> found = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(STATUSES)) {
      ps.setArray(1, c.createArrayOf("varchar", tradeOrderNos.toArray(String[]::new)));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.put(rs.getString(1), SettlementStatus.valueOf(rs.getString(2)));
        }
      }
    }
    return found;
  }
}
