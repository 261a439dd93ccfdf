package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementLine;
import java.sql.Connection;
import java.sql.SQLException;
import org.postgresql.PGConnection;

/**
 * Stores the lines of one file in the import's transaction, in bounded memory: with {@code COPY} on
 * PostgreSQL, with batched INSERTs on a database without it.
 */
interface StatementLineWriter extends AutoCloseable {

  void add(StatementLine line) throws SQLException;

  /** Sends what is pending; every line added must have been stored exactly once. */
  void flush() throws SQLException;

  /** The lines stored so far. */
  long stored();

  @Override
  void close() throws SQLException;

  /** The fastest writer the connection's database offers. */
  static StatementLineWriter open(Connection c, long fileId) throws SQLException {
    return c.isWrapperFor(PGConnection.class)
        ? new StatementLineCopy(c, fileId)
        : new StatementLineBatch(c, fileId);
  }
}
