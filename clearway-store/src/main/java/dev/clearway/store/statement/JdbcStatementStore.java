package dev.clearway.store.statement;

import dev.clearway.core.statement.MalformedStatementException;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementStore;
import dev.clearway.store.Sql;
import dev.clearway.store.StoreException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Statement files and lines in PostgreSQL. The imports of one (account, day) are serialised by a
 * transaction-scoped advisory lock; each import is one transaction, so a refused file leaves none
 * of its lines behind.
 */
public final class JdbcStatementStore implements StatementStore {
  private static final String LOCK = "SELECT pg_advisory_xact_lock(hashtext(?), ?)";
  private static final String SAME_BYTES =
      "SELECT "
          + StatementFileRows.COLUMNS
          + " FROM statement_file WHERE account_ref = ? AND statement_day = ? AND sha256 = ?"
          + " AND expected_hash IS NOT DISTINCT FROM ? ORDER BY id DESC LIMIT 1";
  private static final String IN_FORCE =
      "SELECT "
          + StatementFileRows.COLUMNS
          + " FROM statement_file WHERE account_ref = ? AND statement_day = ?"
          + " AND status = 'IMPORTED'";
  private static final String BY_ID =
      "SELECT " + StatementFileRows.COLUMNS + " FROM statement_file WHERE id = ?";

  private final DataSource dataSource;
  private final Clock clock;

  public JdbcStatementStore(DataSource dataSource, Clock clock) {
    this.dataSource = dataSource;
    this.clock = clock;
  }

  /** What one import transaction ended with: the file, or the line that refused it. */
  private record Outcome(StatementFileRecord file, MalformedStatementException malformed) {}

  @Override
  public StatementFileRecord importFile(Incoming incoming, LineSource lines) {
    Outcome outcome;
    try {
      outcome =
          Sql.inTransaction(dataSource, c -> importIn(c, incoming, lines), o -> o.file() != null);
    } catch (SQLException e) {
      throw new StoreException("import statement file", e);
    }
    if (outcome.file() != null) {
      return outcome.file();
    }
    MalformedStatementException m = outcome.malformed();
    return recordRefusal(incoming, m.reason(), m.lineNo());
  }

  @Override
  public StatementFileRecord refuse(Incoming incoming, String reason) {
    return recordRefusal(incoming, reason, 0);
  }

  @Override
  public Optional<StatementFileRecord> find(long fileId) {
    try (Connection c = dataSource.getConnection()) {
      return one(c, BY_ID, ps -> ps.setLong(1, fileId));
    } catch (SQLException e) {
      throw new StoreException("find statement file", e);
    }
  }

  @Override
  public Optional<StatementFileRecord> current(String accountRef, LocalDate day) {
    try (Connection c = dataSource.getConnection()) {
      return inForce(c, accountRef, day);
    } catch (SQLException e) {
      throw new StoreException("current statement file", e);
    }
  }

  private Outcome importIn(Connection c, Incoming in, LineSource lines) throws SQLException {
    lock(c, in);
    Optional<StatementFileRecord> same = sameBytes(c, in);
    if (same.isPresent()) {
      return new Outcome(same.get(), null);
    }
    Optional<StatementFileRecord> previous = inForce(c, in.accountRef(), in.day());
    long fileId = nextId(c);
    if (previous.isPresent()) {
      supersede(c, previous.get().id(), fileId);
    }
    insertFile(c, fileId, in, "IMPORTED", null, null);
    long stored;
    try (StatementLineWriter batch = StatementLineWriter.open(c, fileId)) {
      lines.feed(batch::add);
      batch.flush();
      stored = batch.stored();
    } catch (MalformedStatementException e) {
      return new Outcome(null, e);
    } catch (SQLException | RuntimeException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("reading statement lines", e);
    }
    exactlyOne(
        c,
        "UPDATE statement_file SET line_count = ? WHERE id = ? AND status = 'IMPORTED'",
        ps -> {
          ps.setLong(1, stored);
          ps.setLong(2, fileId);
        });
    return new Outcome(one(c, BY_ID, ps -> ps.setLong(1, fileId)).orElseThrow(), null);
  }

  private StatementFileRecord recordRefusal(Incoming in, String reason, long lineNo) {
    try {
      return Sql.inTransaction(
          dataSource,
          c -> {
            lock(c, in);
            Optional<StatementFileRecord> same = sameBytes(c, in);
            if (same.isPresent()) {
              return same.get();
            }
            long fileId = nextId(c);
            insertFile(c, fileId, in, "REFUSED", Sql.truncate(reason, 500), lineNo);
            return one(c, BY_ID, ps -> ps.setLong(1, fileId)).orElseThrow();
          });
    } catch (SQLException e) {
      throw new StoreException("record refused statement file", e);
    }
  }

  private static void lock(Connection c, Incoming in) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(LOCK)) {
      ps.setString(1, in.accountRef());
      ps.setInt(2, Math.toIntExact(in.day().toEpochDay()));
      ps.execute();
    }
  }

  private static Optional<StatementFileRecord> sameBytes(Connection c, Incoming in)
      throws SQLException {
    return one(
        c,
        SAME_BYTES,
        ps -> {
          ps.setString(1, in.accountRef());
          ps.setObject(2, in.day());
          ps.setString(3, in.sha256());
          ps.setString(4, in.expectedHash());
        });
  }

  private static Optional<StatementFileRecord> inForce(Connection c, String account, LocalDate day)
      throws SQLException {
    return one(
        c,
        IN_FORCE,
        ps -> {
          ps.setString(1, account);
          ps.setObject(2, day);
        });
  }

  private static long nextId(Connection c) throws SQLException {
    try (PreparedStatement ps =
            c.prepareStatement("SELECT nextval(pg_get_serial_sequence('statement_file', 'id'))");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void supersede(Connection c, long previousId, long newId) throws SQLException {
    exactlyOne(
        c,
        "UPDATE statement_file SET status = 'SUPERSEDED', superseded_by = ?"
            + " WHERE id = ? AND status = 'IMPORTED'",
        ps -> {
          ps.setLong(1, newId);
          ps.setLong(2, previousId);
        });
  }

  private void insertFile(
      Connection c, long id, Incoming in, String status, String reason, Long refusedLine)
      throws SQLException {
    exactlyOne(
        c,
        "INSERT INTO statement_file (id, account_ref, statement_day, format, sha256,"
            + " expected_hash, status, refused_reason, refused_line, imported_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ps -> {
          ps.setLong(1, id);
          ps.setString(2, in.accountRef());
          ps.setObject(3, in.day());
          ps.setString(4, in.format().code());
          ps.setString(5, in.sha256());
          ps.setString(6, in.expectedHash());
          ps.setString(7, status);
          ps.setString(8, reason);
          ps.setObject(9, refusedLine);
          ps.setObject(10, Sql.ts(clock.instant()));
        });
  }

  private static void exactlyOne(Connection c, String sql, Sql.Binder binder) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      int count = ps.executeUpdate();
      if (count != 1) {
        throw new SQLException("expected one row, updated " + count + ": " + sql);
      }
    }
  }

  private static Optional<StatementFileRecord> one(Connection c, String sql, Sql.Binder binder)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(StatementFileRows.map(rs)) : Optional.empty();
      }
    }
  }
}
