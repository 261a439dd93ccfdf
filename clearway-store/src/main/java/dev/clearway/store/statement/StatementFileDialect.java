package dev.clearway.store.statement;

import dev.clearway.core.statement.StatementStore.Incoming;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Where PostgreSQL and the MySQL family differ in storing a statement file: how the imports of one
 * (account, day) are serialised, how a column is compared null-safely, and how the lines are
 * written.
 */
enum StatementFileDialect {
  /** A transaction-scoped advisory lock; the lines by {@code COPY}. */
  POSTGRES("IS NOT DISTINCT FROM") {
    @Override
    void lock(Connection c, Incoming in) throws SQLException {
      try (PreparedStatement ps =
          c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?), ?)")) {
        ps.setString(1, in.accountRef());
        ps.setInt(2, Math.toIntExact(in.day().toEpochDay()));
        ps.execute();
      }
    }

    @Override
    StatementLineWriter lineWriter(Connection c, long fileId) throws SQLException {
      return StatementLineWriter.open(c, fileId);
    }
  },

  /**
   * The row lock on the account-day's {@code statement_import_lock} row, held until the import
   * ends; the lines in multi-row INSERTs.
   */
  MYSQL("<=>") {
    @Override
    void lock(Connection c, Incoming in) throws SQLException {
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO statement_import_lock (account_ref, statement_day) VALUES (?, ?)"
                  + " ON DUPLICATE KEY UPDATE imports = imports + 1")) {
        ps.setString(1, in.accountRef());
        ps.setObject(2, in.day());
        int count = ps.executeUpdate();
        // one row inserted (1) or bumped (2)
        if (count != 1 && count != 2) {
          throw new SQLException("statement import lock answered " + count);
        }
      }
    }

    @Override
    StatementLineWriter lineWriter(Connection c, long fileId) {
      return new StatementLineMultiRowInsert(c, fileId);
    }
  };

  private final String nullSafeEquals;

  StatementFileDialect(String nullSafeEquals) {
    this.nullSafeEquals = nullSafeEquals;
  }

  /** Serialises the imports of {@code in}'s account and day until the transaction ends. */
  abstract void lock(Connection c, Incoming in) throws SQLException;

  /** Stores the lines of file {@code fileId} in the import's transaction. */
  abstract StatementLineWriter lineWriter(Connection c, long fileId) throws SQLException;

  /** The operator that compares two values as equal when both are NULL. */
  String nullSafeEquals() {
    return nullSafeEquals;
  }
}
