package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementLine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Stores the lines of one file on the MySQL family with multi-row INSERTs: up to {@value #ROWS}
 * lines (or {@value #MAX_CHARS} characters of raw text) per statement, in the import's transaction.
 * Memory is bounded by one statement's lines, whatever the file's size. Each statement must insert
 * every line it carries.
 *
 * <p>Not {@code LOAD DATA LOCAL INFILE}: it needs {@code local_infile} on the server (off by
 * default on MySQL 8) and on the driver, and a client that allows it lets the server ask for any
 * local file; a multi-row INSERT needs nothing but the INSERT privilege, and its count is checked.
 */
final class StatementLineMultiRowInsert implements StatementLineWriter {
  static final int ROWS = 500;
  static final int MAX_CHARS = 4 * 1024 * 1024;
  private static final int COLUMNS = 12;
  private static final String INSERT =
      "INSERT INTO statement_line (file_id, line_no, raw, kind, trade_order_no, refund_order_no,"
          + " attempt_key, psp_reference, amount, fee, currency, at) VALUES ";
  private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private final Connection connection;
  private final long fileId;
  private final List<StatementLine> pending = new ArrayList<>(ROWS);
  private PreparedStatement full;
  private long chars;
  private long stored;

  StatementLineMultiRowInsert(Connection c, long fileId) {
    this.connection = c;
    this.fileId = fileId;
  }

  @Override
  public void add(StatementLine line) throws SQLException {
    pending.add(line);
    chars += line.raw().length();
    if (pending.size() == ROWS || chars >= MAX_CHARS) {
      flush();
    }
  }

  /** Sends the pending lines in one statement; it must have inserted each of them. */
  @Override
  public void flush() throws SQLException {
    if (pending.isEmpty()) {
      return;
    }
    int rows = pending.size();
    if (rows == ROWS) {
      if (full == null) {
        full = connection.prepareStatement(statement(ROWS));
      }
      insert(full, rows);
    } else {
      try (PreparedStatement ps = connection.prepareStatement(statement(rows))) {
        insert(ps, rows);
      }
    }
    stored += rows;
    pending.clear();
    chars = 0;
  }

  private void insert(PreparedStatement ps, int rows) throws SQLException {
    int i = 1;
    for (StatementLine line : pending) {
      i = bind(ps, i, line);
    }
    int count = ps.executeUpdate();
    if (count != rows) {
      throw new SQLException("statement_line insert stored " + count + " of " + rows + " lines");
    }
  }

  private int bind(PreparedStatement ps, int first, StatementLine line) throws SQLException {
    int i = first;
    ps.setLong(i++, fileId);
    ps.setLong(i++, line.lineNo());
    ps.setString(i++, line.raw());
    ps.setString(i++, line.recordsMoney() ? line.kind().name() : null);
    ps.setString(i++, line.tradeOrderNo());
    ps.setString(i++, line.refundOrderNo());
    ps.setString(i++, line.attemptKey());
    ps.setString(i++, line.pspReference());
    if (line.recordsMoney()) {
      ps.setLong(i++, line.amount());
      ps.setLong(i++, line.fee());
      ps.setString(i++, line.currency());
      ps.setObject(i++, dev.clearway.store.Sql.ts(line.at()));
    } else {
      ps.setNull(i++, Types.BIGINT);
      ps.setNull(i++, Types.BIGINT);
      ps.setNull(i++, Types.VARCHAR);
      ps.setNull(i++, Types.TIMESTAMP);
    }
    return i;
  }

  private static String statement(int rows) {
    return INSERT + String.join(", ", Collections.nCopies(rows, ROW));
  }

  @Override
  public long stored() {
    return stored;
  }

  @Override
  public void close() throws SQLException {
    pending.clear();
    if (full != null) {
      full.close();
    }
  }
}
