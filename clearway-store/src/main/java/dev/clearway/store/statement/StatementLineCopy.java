package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementLine;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneOffset;
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

  private final String fileId;
  private final PGConnection connection;
  private CopyIn copy;
  private final StringBuilder row = new StringBuilder(256);
  private byte[] buffer = new byte[BUFFER];
  private int used;
  private long sent;
  private long stored;

  StatementLineCopy(Connection c, long fileId) throws SQLException {
    this.fileId = Long.toString(fileId);
    this.connection = c.unwrap(PGConnection.class);
  }

  @Override
  public void add(StatementLine line) throws SQLException {
    row.setLength(0);
    row.append(fileId).append('\t').append(line.lineNo()).append('\t');
    text(line.raw());
    row.append('\t');
    text(line.recordsMoney() ? line.kind().name() : null);
    row.append('\t');
    text(line.tradeOrderNo());
    row.append('\t');
    text(line.refundOrderNo());
    row.append('\t');
    text(line.attemptKey());
    row.append('\t');
    text(line.pspReference());
    if (line.recordsMoney()) {
      row.append('\t').append(line.amount()).append('\t').append(line.fee()).append('\t');
      text(line.currency());
      row.append('\t').append(line.at().atOffset(ZoneOffset.UTC));
    } else {
      row.append("\t\\N\t\\N\t\\N\t\\N");
    }
    row.append('\n');
    if (copy == null) {
      copy = connection.getCopyAPI().copyIn(COPY);
    }
    write(row.toString().getBytes(StandardCharsets.UTF_8));
    if (++sent == CHUNK) {
      flush();
    }
  }

  /** A text column of COPY's text format: {@code \N} for null, backslash escapes otherwise. */
  private void text(String value) {
    if (value == null) {
      row.append("\\N");
      return;
    }
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      switch (ch) {
        case '\\' -> row.append("\\\\");
        case '\t' -> row.append("\\t");
        case '\n' -> row.append("\\n");
        case '\r' -> row.append("\\r");
        default -> row.append(ch);
      }
    }
  }

  private void write(byte[] bytes) throws SQLException {
    if (used + bytes.length > buffer.length) {
      drain();
      if (bytes.length > buffer.length) {
        buffer = new byte[bytes.length];
      }
    }
    System.arraycopy(bytes, 0, buffer, used, bytes.length);
    used += bytes.length;
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
