package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementLine;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Streams the lines of one file into {@code statement_line} with PostgreSQL's {@code COPY ... FROM
 * STDIN} (text format), in the import's transaction, sent in buffers of bounded size, so a file of
 * any size is stored in bounded memory at the speed of COPY. One COPY statement carries at most
 * {@value #CHUNK} lines, so each stays far within the pool's statement timeout; the server's count
 * of copied rows must equal the lines sent in each.
 */
final class StatementLineCopy implements StatementLineWriter {
  private static final String COPY =
      "COPY statement_line (file_id, line_no, raw, kind, trade_order_no, refund_order_no,"
          + " attempt_key, psp_reference, amount, fee, currency, at) FROM STDIN";
  private static final int BUFFER = 256 * 1024;
  static final int CHUNK = 100_000;

  private final long fileId;
  private final PGConnection connection;
  private CopyIn copy;
  private final CopyTextRow row = new CopyTextRow();
  private byte[] buffer = new byte[BUFFER];
  private int used;
  private long sent;
  private long stored;

  StatementLineCopy(Connection c, long fileId) throws SQLException {
    this.fileId = fileId;
    this.connection = c.unwrap(PGConnection.class);
  }

  @Override
  public void add(StatementLine line) throws SQLException {
    row.clear().number(fileId).number(line.lineNo()).text(line.raw());
    if (line.recordsMoney()) {
      row.text(line.kind().name());
    } else {
      row.none();
    }
    row.text(line.tradeOrderNo())
        .text(line.refundOrderNo())
        .text(line.attemptKey())
        .text(line.pspReference());
    if (line.recordsMoney()) {
      row.number(line.amount()).number(line.fee()).text(line.currency()).instant(line.at());
    } else {
      row.none().none().none().none();
    }
    row.end();
    if (copy == null) {
      copy = connection.getCopyAPI().copyIn(COPY);
    }
    write(row.bytes(), row.length());
    if (++sent == CHUNK) {
      flush();
    }
  }

  private void write(byte[] bytes, int length) throws SQLException {
    if (used + length > buffer.length) {
      drain();
      if (length > buffer.length) {
        buffer = new byte[length];
      }
    }
    System.arraycopy(bytes, 0, buffer, used, length);
    used += length;
  }

  private void drain() throws SQLException {
    if (used > 0) {
      copy.writeToCopy(buffer, 0, used);
      used = 0;
    }
  }

  /** Ends the COPY in progress; the server must have stored every line sent in it. */
  @Override
  public void flush() throws SQLException {
    if (copy == null) {
      return;
    }
    drain();
    long copied = copy.endCopy();
    copy = null;
    if (copied != sent) {
      throw new SQLException("statement_line COPY stored " + copied + " of " + sent + " lines");
    }
    stored += copied;
    sent = 0;
  }

  @Override
  public long stored() {
    return stored;
  }

  /** Cancels a COPY still in progress (a malformed line stopped the file), so it stores nothing. */
  @Override
  public void close() throws SQLException {
    if (copy != null && copy.isActive()) {
      copy.cancelCopy();
    }
  }
}
