package dev.clearway.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The plumbing every store shares: one statement on a pooled connection in autocommit, its
 * parameters bound next to the SQL by the caller, failures wrapped without parameter values.
 */
public final class Sql {
  private final DataSource dataSource;

  public Sql(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Binds a statement's parameters. */
  @FunctionalInterface
  public interface Binder {
    void bind(PreparedStatement ps) throws SQLException;
  }

  /** Maps the current row. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  /** Work done on the connection of one transaction. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * Runs {@code work} in one transaction on a pooled connection and commits what it did. Any
   * exception it throws rolls the transaction back and is rethrown as it was; autocommit is
   * restored before the connection goes back to the pool either way.
   */
  public static <T> T inTransaction(DataSource dataSource, Work<T> work) throws SQLException {
    return inTransaction(dataSource, work, result -> true);
  }

  /**
   * Like {@link #inTransaction(DataSource, Work)}, but commits only when {@code commit} accepts the
   * result and rolls back otherwise (a refusal that must leave nothing behind and release the locks
   * it took).
   */
  public static <T> T inTransaction(
      DataSource dataSource, Work<T> work, Predicate<? super T> commit) throws SQLException {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        if (commit.test(result)) {
          c.commit();
        } else {
          c.rollback();
        }
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        rollbackQuietly(c, e);
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  private static void rollbackQuietly(Connection c, Throwable cause) {
    try {
      c.rollback();
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * Runs {@code work} in one transaction of this store's data source; see {@link #inTransaction}.
   */
  public <T> T transaction(String operation, Work<T> work) {
    try {
      return inTransaction(dataSource, work);
    } catch (SQLException e) {
      throw new StoreException(operation, e);
    }
  }

  public <T> List<T> query(String sql, Binder binder, RowMapper<T> mapper) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      List<T> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(mapper.map(rs));
        }
      }
      return rows;
    } catch (SQLException e) {
      throw new StoreException(sql, e);
    }
  }

  /** Runs an update and returns its count; the caller decides what 0 rows means. */
  public int update(String sql, Binder binder) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new StoreException(sql, e);
    }
  }

  /** Instants travel as UTC timestamps with time zone. */
  public static OffsetDateTime ts(Instant instant) {
    return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
  }

  /** Codes and reasons fit their columns; a longer text is cut, never refused. */
  public static String truncate(String s, int max) {
    return s == null || s.length() <= max ? s : s.substring(0, max);
  }
}
