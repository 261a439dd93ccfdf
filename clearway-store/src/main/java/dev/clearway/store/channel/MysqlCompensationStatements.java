package dev.clearway.store.channel;

import dev.clearway.core.channel.port.CompensationStore.Compensation;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The compensation claim on the MySQL family, which has no data-modifying CTE nor {@code
 * RETURNING}: a locking read of the due page in the order of {@code idx_compensation_due} (InnoDB
 * locks every row a locking read examines, so the page is read from the index in its order and
 * stops at the LIMIT), an UPDATE of the keys found, and a read of the rows claimed. The caller
 * holds the transaction.
 */
final class MysqlCompensationStatements {

  private MysqlCompensationStatements() {}

  static List<Compensation> claim(
      Connection c, int limit, Duration lease, Instant now, Sql.RowMapper<Compensation> mapper)
      throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            SELECT attempt_id FROM attempt_compensation FORCE INDEX (idx_compensation_due)
             WHERE status = 'PENDING' AND due_at <= ?
             ORDER BY due_at LIMIT ?
               FOR UPDATE SKIP LOCKED
            """)) {
      ps.setObject(1, Sql.ts(now));
      ps.setInt(2, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
    }
    if (ids.isEmpty()) {
      return List.of();
    }
    String in = String.join(", ", Collections.nCopies(ids.size(), "?"));
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE attempt_compensation SET due_at = ?, version = version + 1, updated_at = ?"
                + " WHERE attempt_id IN ("
                + in
                + ")")) {
      ps.setObject(1, Sql.ts(now.plus(lease)));
      ps.setObject(2, Sql.ts(now));
      bind(ps, 3, ids);
      if (ps.executeUpdate() != ids.size()) {
        throw new SQLException("compensation claim: a locked row was not updated");
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT attempt_id, trade_order_no, refund_no, amount, status, reason, tries, version"
                + " FROM attempt_compensation WHERE attempt_id IN ("
                + in
                + ") ORDER BY due_at, attempt_id")) {
      bind(ps, 1, ids);
      List<Compensation> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(mapper.map(rs));
        }
      }
      return rows;
    }
  }

  private static void bind(PreparedStatement ps, int first, List<Long> ids) throws SQLException {
    int i = first;
    for (long id : ids) {
      ps.setLong(i++, id);
    }
  }
}
