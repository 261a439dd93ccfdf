package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.port.SettlementStore;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Settlement status in {@code payment_settlement}, apart from {@code pay_flow} (which this store
 * never reads or writes). A mark changes the row only when the status differs, with a history row
 * in the same transaction; the row lock serialises two marks of one payment. Every version of a row
 * has its history row once the row has changed: a row inserted here gets its version-0 row at once;
 * a payment settled set-based by its agreed statement line ({@link JdbcAgreeingLines}) has no row
 * until its first mark, which writes it from that line (SETTLED, version 0, see {@link
 * SettlementBatch#materialize}); such a row is its own record at version 0 and gets that history
 * row from the first change, before the change's own. Statuses are read in effect: the row, else
 * the agreed line ({@code payment_settlement_in_effect}).
 */
public final class JdbcSettlementStore implements SettlementStore {

  private static final String INSERT =
      """
      INSERT INTO payment_settlement (trade_order_no, status, difference_id, statement_file_id,
             statement_line_no, version, updated_at)
      VALUES (?, ?, ?, ?, ?, 0, ?)
      """;
  private static final String LOCK =
      "SELECT status, version FROM payment_settlement WHERE trade_order_no = ? FOR UPDATE";
  private static final String UPDATE =
      """
      UPDATE payment_settlement
         SET status = ?, difference_id = ?, statement_file_id = ?, statement_line_no = ?,
             version = version + 1, updated_at = ?
       WHERE trade_order_no = ? AND status = ? AND version = ?
      """;
  private static final String HISTORY =
      """
      INSERT INTO payment_settlement_history (trade_order_no, version, from_status, to_status,
             difference_id, statement_file_id, statement_line_no, at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """;

  /**
   * The version-0 history row of a row about to leave version 0, from the row as it is, unless it
   * has one (a row settled set-based has none until it first changes).
   */
  private static final String FIRST_HISTORY =
      """
      INSERT INTO payment_settlement_history (trade_order_no, version, from_status, to_status,
             difference_id, statement_file_id, statement_line_no, at)
      SELECT trade_order_no, 0, NULL, status, difference_id, statement_file_id, statement_line_no,
             updated_at
        FROM payment_settlement
       WHERE trade_order_no = ? AND version = 0
      """;

  private final DataSource dataSource;
  private final Sql sql;
  private final SqlDialect dialect;

  public JdbcSettlementStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.dialect = dialect;
  }

  @Override
  public void mark(Mark mark) {
    try {
      Sql.inTransaction(
          dataSource,
          c -> {
            if (!(dialect instanceof MysqlDialect)) {
              SettlementBatch.materialize(
                  c, c.createArrayOf("varchar", new String[] {mark.tradeOrderNo()}));
            }
            return markIn(c, mark);
          });
    } catch (SQLException e) {
      throw new StoreException("mark settlement", e);
    }
  }

  private Boolean markIn(Connection c, Mark m) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(dialect.insertIfAbsent(INSERT, "trade_order_no"))) {
      ps.setString(1, m.tradeOrderNo());
      ps.setString(2, m.status().name());
      ps.setObject(3, m.differenceId());
      ps.setObject(4, m.statementFileId());
      ps.setObject(5, m.statementLineNo());
      ps.setObject(6, ts(m.at()));
      if (dialect.executeIfAbsent(ps)) {
        history(c, m, 0, null);
        return true;
      }
    }
    String current;
    long version;
    try (PreparedStatement ps = c.prepareStatement(LOCK)) {
      ps.setString(1, m.tradeOrderNo());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("settlement row neither inserted nor found");
        }
        current = rs.getString("status");
        version = rs.getLong("version");
      }
    }
    if (current.equals(m.status().name())) {
      return false;
    }
    if (version == 0) {
      try (PreparedStatement ps =
          c.prepareStatement(dialect.insertIfAbsent(FIRST_HISTORY, "trade_order_no, version"))) {
        ps.setString(1, m.tradeOrderNo());
        dialect.executeIfAbsent(ps);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(UPDATE)) {
      ps.setString(1, m.status().name());
      ps.setObject(2, m.differenceId());
      ps.setObject(3, m.statementFileId());
      ps.setObject(4, m.statementLineNo());
      ps.setObject(5, ts(m.at()));
      ps.setString(6, m.tradeOrderNo());
      ps.setString(7, current);
      ps.setLong(8, version);
      if (ps.executeUpdate() != 1) {
        throw new SQLException("settlement row moved under its lock");
      }
    }
    history(c, m, version + 1, current);
    return true;
  }

  /** The whole batch in one transaction ({@link SettlementBatch}). */
  @Override
  public void markAll(List<Mark> marks) {
    if (marks.isEmpty()) {
      return;
    }
    if (marks.stream().map(Mark::tradeOrderNo).distinct().count() != marks.size()) {
      throw new IllegalArgumentException("a batch of settlement marks names a trade order twice");
    }
    try {
      Sql.inTransaction(
          dataSource,
          c -> {
            if (dialect instanceof MysqlDialect) {
              MysqlSettlementBatch.mark(c, marks, this::markIn);
            } else {
              SettlementBatch.mark(c, marks);
            }
            return null;
          });
    } catch (SQLException e) {
      throw new StoreException("mark settlements", e);
    }
  }

  @Override
  public Map<String, SettlementStatus> statuses(Collection<String> tradeOrderNos) {
    try (Connection c = dataSource.getConnection()) {
      return dialect instanceof MysqlDialect
          ? MysqlSettlementBatch.statuses(c, tradeOrderNos)
          : SettlementBatch.statuses(c, tradeOrderNos);
    } catch (SQLException e) {
      throw new StoreException("settlement statuses", e);
    }
  }

  @Override
  public Optional<SettlementStatus> status(String tradeOrderNo) {
    // The MySQL family settles every payment by its row (no agreed line settles one there), and a
    // sharding driver knows tables, not views: the row is read there.
    String table =
        dialect instanceof MysqlDialect ? "payment_settlement" : "payment_settlement_in_effect";
    return sql
        .query(
            "SELECT status FROM " + table + " WHERE trade_order_no = ?",
            ps -> ps.setString(1, tradeOrderNo),
            rs -> SettlementStatus.valueOf(rs.getString(1)))
        .stream()
        .findFirst();
  }

  private static void history(Connection c, Mark m, long version, String from) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(HISTORY)) {
      ps.setString(1, m.tradeOrderNo());
      ps.setLong(2, version);
      ps.setString(3, from);
      ps.setString(4, m.status().name());
      ps.setObject(5, m.differenceId());
      ps.setObject(6, m.statementFileId());
      ps.setObject(7, m.statementLineNo());
      ps.setObject(8, ts(m.at()));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("settlement history row not written");
      }
    }
  }
}
