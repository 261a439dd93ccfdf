package dev.clearway.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import javax.sql.DataSource;

/**
 * A query streamed from a server-side cursor: its own connection with autocommit off (PgJDBC reads
 * a cursor only inside a transaction) and a fetch size, so that memory holds one fetch of rows
 * whatever the size of the result. Closing the stream ends the read-only transaction and gives the
 * connection back; the caller must close it (try-with-resources).
 */
public final class CursorStream {
  public static final int FETCH_SIZE = 1000;

  private CursorStream() {}

  public static <T> Stream<T> open(
      DataSource dataSource, String sql, Sql.Binder binder, Sql.RowMapper<T> mapper) {
    Connection c = null;
    PreparedStatement ps = null;
    try {
      c = dataSource.getConnection();
      c.setAutoCommit(false);
      ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
      ps.setFetchSize(FETCH_SIZE);
      binder.bind(ps);
      ResultSet rs = ps.executeQuery();
      Connection connection = c;
      PreparedStatement statement = ps;
      return StreamSupport.stream(new Rows<>(rs, mapper, sql), false)
          .onClose(() -> close(connection, statement, rs, sql));
    } catch (SQLException | RuntimeException e) {
      if (c != null) {
        close(c, ps, null, sql);
      }
      throw e instanceof SQLException s ? new StoreException(sql, s) : (RuntimeException) e;
    }
  }

  /**
   * As {@link #open(DataSource, String, Sql.Binder, Sql.RowMapper)} on a connection the caller
   * holds (one with session state, a temporary table): the read runs in its own transaction, rolled
   * back on close; the connection is left open, in autocommit, for the caller.
   */
  public static <T> Stream<T> onConnection(
      Connection c, String sql, Sql.Binder binder, Sql.RowMapper<T> mapper) {
    PreparedStatement ps = null;
    try {
      c.setAutoCommit(false);
      ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
      ps.setFetchSize(FETCH_SIZE);
      binder.bind(ps);
      ResultSet rs = ps.executeQuery();
      PreparedStatement statement = ps;
      return StreamSupport.stream(new Rows<>(rs, mapper, sql), false)
          .onClose(() -> endRead(c, statement, rs, sql));
    } catch (SQLException | RuntimeException e) {
      endRead(c, ps, null, sql);
      throw e instanceof SQLException s ? new StoreException(sql, s) : (RuntimeException) e;
    }
  }

  private static void endRead(Connection c, PreparedStatement ps, ResultSet rs, String sql) {
    try (ps;
        rs) {
      c.rollback();
      c.setAutoCommit(true);
    } catch (SQLException e) {
      throw new StoreException(sql, e);
    }
  }

  private static void close(Connection c, PreparedStatement ps, ResultSet rs, String sql) {
    try (c;
        ps;
        rs) {
      c.rollback();
      c.setAutoCommit(true);
    } catch (SQLException e) {
      throw new StoreException(sql, e);
    }
  }

  /** The rows of the result set, mapped one at a time as the stream pulls them. */
  private static final class Rows<T> extends Spliterators.AbstractSpliterator<T> {
    private final ResultSet rs;
    private final Sql.RowMapper<T> mapper;
    private final String sql;

    Rows(ResultSet rs, Sql.RowMapper<T> mapper, String sql) {
      super(Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL);
      this.rs = rs;
      this.mapper = mapper;
      this.sql = sql;
    }

    @Override
    public boolean tryAdvance(Consumer<? super T> action) {
      try {
        if (!rs.next()) {
          return false;
        }
        action.accept(mapper.map(rs));
        return true;
      } catch (SQLException e) {
        throw new StoreException(sql, e);
      }
    }
  }
}
