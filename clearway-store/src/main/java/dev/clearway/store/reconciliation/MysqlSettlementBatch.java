package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore.Mark;
import dev.clearway.store.SqlErrors;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Many settlement marks of distinct trade orders in one transaction on the MySQL family, each with
 * the effect of one mark ({@link SettlementBatch} does the same with PostgreSQL arrays): the rows
 * of a page of {@value #PAGE} marks are locked in trade order order; the trade orders without a row
 * get theirs (version 0) and their history rows in two multi-row INSERTs; a row whose status
 * differs moves through the single mark. When another transaction inserted one of the new rows
 * meanwhile, the INSERT fails as a whole (InnoDB undoes that statement only) and those marks go
 * through the single mark one by one.
 */
final class MysqlSettlementBatch {
  static final int PAGE = 500;
  private static final String INSERT =
      "INSERT INTO payment_settlement (trade_order_no, status, difference_id, statement_file_id,"
          + " statement_line_no, version, updated_at) VALUES ";
  private static final String INSERT_ROW = "(?, ?, ?, ?, ?, 0, ?)";
  private static final String HISTORY =
      "INSERT INTO payment_settlement_history (trade_order_no, version, from_status, to_status,"
          + " difference_id, statement_file_id, statement_line_no, at) VALUES ";
  private static final String HISTORY_ROW = "(?, 0, NULL, ?, ?, ?, ?, ?)";

  /** One mark in the caller's transaction. */
  @FunctionalInterface
  interface SingleMark {
    void mark(Connection c, Mark mark) throws SQLException;
  }

  private MysqlSettlementBatch() {}

  /** Writes the marks in the caller's transaction; trade orders must be distinct. */
  static void mark(Connection c, List<Mark> marks, SingleMark single) throws SQLException {
    List<Mark> sorted = new ArrayList<>(marks);
    sorted.sort(Comparator.comparing(Mark::tradeOrderNo));
    for (int from = 0; from < sorted.size(); from += PAGE) {
      page(c, sorted.subList(from, Math.min(sorted.size(), from + PAGE)), single);
    }
  }

  private static void page(Connection c, List<Mark> marks, SingleMark single) throws SQLException {
    Map<String, String> current = lock(c, marks);
    List<Mark> added = new ArrayList<>();
    List<Mark> moved = new ArrayList<>();
    for (Mark m : marks) {
      String status = current.get(m.tradeOrderNo());
      if (status == null) {
        added.add(m);
      } else if (!status.equals(m.status().name())) {
        moved.add(m);
      }
    }
    if (!added.isEmpty() && !insertAll(c, added)) {
      moved.addAll(added);
    }
    for (Mark m : moved) {
      single.mark(c, m);
    }
  }

  private static Map<String, String> lock(Connection c, List<Mark> marks) throws SQLException {
    String sql =
        "SELECT trade_order_no, status FROM payment_settlement WHERE trade_order_no IN ("
            + MysqlReconStatements.placeholders(marks.size())
            + ") ORDER BY trade_order_no FOR UPDATE";
    Map<String, String> found = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      for (Mark m : marks) {
        ps.setString(i++, m.tradeOrderNo());
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.put(rs.getString(1), rs.getString(2));
        }
      }
    }
    return found;
  }

  /**
   * The rows and their version-0 history rows; false when one of the rows exists (none written).
   */
  private static boolean insertAll(Connection c, List<Mark> marks) throws SQLException {
    String rows = String.join(", ", Collections.nCopies(marks.size(), INSERT_ROW));
    try (PreparedStatement ps = c.prepareStatement(INSERT + rows)) {
      int i = 1;
      for (Mark m : marks) {
        ps.setString(i++, m.tradeOrderNo());
        i = bindRest(ps, i, m);
      }
      if (ps.executeUpdate() != marks.size()) {
        throw new SQLException("payment_settlement insert missed rows");
      }
    } catch (SQLException e) {
      if (SqlErrors.isUniqueViolation(e)) {
        return false;
      }
      throw e;
    }
    String history = String.join(", ", Collections.nCopies(marks.size(), HISTORY_ROW));
    try (PreparedStatement ps = c.prepareStatement(HISTORY + history)) {
      int i = 1;
      for (Mark m : marks) {
        ps.setString(i++, m.tradeOrderNo());
        i = bindRest(ps, i, m);
      }
      if (ps.executeUpdate() != marks.size()) {
        throw new SQLException("payment_settlement_history insert missed rows");
      }
    }
    return true;
  }

  /** status, difference_id, statement_file_id, statement_line_no, at. */
  private static int bindRest(PreparedStatement ps, int first, Mark m) throws SQLException {
    int i = first;
    ps.setString(i++, m.status().name());
    ps.setObject(i++, m.differenceId());
    ps.setObject(i++, m.statementFileId());
    ps.setObject(i++, m.statementLineNo());
    ps.setObject(i++, ts(m.at()));
    return i;
  }

  static Map<String, SettlementStatus> statuses(Connection c, Collection<String> tradeOrderNos)
      throws SQLException {
    List<String> all = new ArrayList<>(tradeOrderNos);
    Map<String, SettlementStatus> found = new HashMap<>();
    for (int from = 0; from < all.size(); from += PAGE) {
      List<String> page = all.subList(from, Math.min(all.size(), from + PAGE));
      String sql =
          "SELECT trade_order_no, status FROM payment_settlement WHERE trade_order_no IN ("
              + MysqlReconStatements.placeholders(page.size())
              + ")";
      try (PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 0; i < page.size(); i++) {
          ps.setString(i + 1, page.get(i));
        }
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            found.put(rs.getString(1), SettlementStatus.valueOf(rs.getString(2)));
          }
        }
      }
    }
    return found;
  }
}
