package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementLine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.ZoneOffset;

/**
 * Inserts the lines of one file in batches, so that a file of any size is stored with bounded
 * memory. Every row of every batch must be inserted.
 */
final class StatementLineBatch implements StatementLineWriter {
  static final int BATCH = 500;
  private static final String INSERT =
      "INSERT INTO statement_line (file_id, line_no, raw, kind, trade_order_no, refund_order_no,"
          + " attempt_key, psp_reference, amount, fee, currency, at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private final long fileId;
  private final PreparedStatement ps;
  private int pending;
  private long stored;

  StatementLineBatch(Connection c, long fileId) throws SQLException {
    this.fileId = fileId;
    this.ps = c.prepareStatement(INSERT);
  }

  @Override
  public void add(StatementLine line) throws SQLException {
    ps.setLong(1, fileId);
    ps.setLong(2, line.lineNo());
    ps.setString(3, line.raw());
    ps.setString(4, line.recordsMoney() ? line.kind().name() : null);
    ps.setString(5, line.tradeOrderNo());
    ps.setString(6, line.refundOrderNo());
    ps.setString(7, line.attemptKey());
    ps.setString(8, line.pspReference());
    if (line.recordsMoney()) {
      ps.setLong(9, line.amount());
      ps.setLong(10, line.fee());
      ps.setString(11, line.currency());
      ps.setObject(12, line.at().atOffset(ZoneOffset.UTC));
    } else {
      ps.setNull(9, Types.BIGINT);
      ps.setNull(10, Types.BIGINT);
      ps.setNull(11, Types.VARCHAR);
      ps.setNull(12, Types.TIMESTAMP_WITH_TIMEZONE);
    }
    ps.addBatch();
    if (++pending == BATCH) {
      flush();
    }
  }

  /** Sends the pending rows; each must have been inserted exactly once. */
  @Override
  public void flush() throws SQLException {
    if (pending == 0) {
      return;
    }
    int[] counts = ps.executeBatch();
    if (counts.length != pending) {
      throw new SQLException("statement_line batch answered " + counts.length + " of " + pending);
    }
    for (int count : counts) {
      if (count != 1 && count != java.sql.Statement.SUCCESS_NO_INFO) {
        throw new SQLException("statement_line insert affected " + count + " rows");
      }
    }
    stored += pending;
    pending = 0;
  }

  @Override
  public long stored() {
    return stored;
  }

  @Override
  public void close() throws SQLException {
    ps.close();
  }
}
