package dev.clearway.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * Writes that read back the row they wrote, in portable SQL for statements off the hot path: the
 * write, then a SELECT of the row by its id on the same connection (the caller's transaction holds
 * the row). PostgreSQL's {@code RETURNING} and the MySQL family's lack of it both run these.
 */
final class RowWrites {

  private RowWrites() {}

  /** Runs {@code insert} (one row of {@code table}, id generated) and returns the row as stored. */
  static <T> T insert(
      Connection c, String insert, Sql.Binder binder, String table, Sql.RowMapper<T> mapper)
      throws SQLException {
    long id;
    try (PreparedStatement ps = c.prepareStatement(insert, new String[] {"id"})) {
      binder.bind(ps);
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        id = keys.getLong(1);
      }
    }
    return read(c, table, id, mapper).orElseThrow(() -> new SQLException(table + " " + id));
  }

  /**
   * Runs {@code update} (of at most the row {@code id} of {@code table}) and returns the row as
   * written; empty when it updated nothing.
   */
  static <T> Optional<T> update(
      Connection c,
      String update,
      Sql.Binder binder,
      String table,
      long id,
      Sql.RowMapper<T> mapper)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(update)) {
      binder.bind(ps);
      if (ps.executeUpdate() == 0) {
        return Optional.empty();
      }
    }
    return read(c, table, id, mapper);
  }

  private static <T> Optional<T> read(Connection c, String table, long id, Sql.RowMapper<T> mapper)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + table + " WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(mapper.map(rs)) : Optional.empty();
      }
    }
  }
}
