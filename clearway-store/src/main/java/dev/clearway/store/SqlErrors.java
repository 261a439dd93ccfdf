package dev.clearway.store;

import java.sql.SQLException;

/**
 * What a database error means, on PostgreSQL and on the MySQL family alike. PostgreSQL names it by
 * SQLSTATE (23505 unique, 23514 check); MariaDB and MySQL report both unique and CHECK violations
 * as SQLSTATE 23000 (MySQL a CHECK as HY000) and tell them apart by error code, while the guard
 * triggers of either raise SQLSTATE 23514 themselves.
 */
public final class SqlErrors {
  private static final String UNIQUE_VIOLATION = "23505";
  private static final String CHECK_VIOLATION = "23514";
  private static final int MYSQL_DUPLICATE_KEY = MysqlDialect.DUPLICATE_KEY;
  private static final int MARIADB_CHECK_FAILED = 4025;
  private static final int MYSQL_CHECK_FAILED = 3819;

  private SqlErrors() {}

  /** A unique key (or primary key) refused the write. */
  public static boolean isUniqueViolation(SQLException e) {
    return UNIQUE_VIOLATION.equals(e.getSQLState()) || e.getErrorCode() == MYSQL_DUPLICATE_KEY;
  }

  /** A CHECK constraint or a guard trigger refused the write. */
  public static boolean isCheckViolation(SQLException e) {
    return CHECK_VIOLATION.equals(e.getSQLState())
        || e.getErrorCode() == MARIADB_CHECK_FAILED
        || e.getErrorCode() == MYSQL_CHECK_FAILED;
  }
}
