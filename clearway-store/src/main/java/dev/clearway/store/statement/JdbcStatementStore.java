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
 * Statement files and lines, on PostgreSQL or the MySQL family ({@link StatementFileDialect}). Each
 * import is one transaction, so a refused file leaves none of its lines behind; the imports of one
 * (account, day) are serialised by the dialect's lock; the same bytes twice change nothing; a
 * corrected file supersedes the one in force and both stay.
 *
 * <p>At most one file of a day is IMPORTED (a unique index) and {@code superseded_by} names a file
 * that exists (a foreign key, checked at once on the MySQL family): the file in force is first
 * marked SUPERSEDED by itself, then the new file is inserted, then the old one is pointed at it,
 * all in the import's transaction, so no other reader sees the intermediate row.
 */
public final class JdbcStatementStore implements StatementStore {
  private static final String SAME_BYTES =
      "SELECT "
          + StatementFileRows.COLUMNS
          + " FROM statement_file WHERE account_ref = ? AND statement_day = ? AND sha256 = ?"
          + " AND expected_hash %s ? ORDER BY id DESC LIMIT 1";
  private static final String IN_FORCE =
      "SELECT "
          + StatementFileRows.COLUMNS
          + " FROM statement_file WHERE account_ref = ? AND statement_day = ?"
          + " AND status = 'IMPORTED'";
  private static final String BY_ID =
      "SELECT " + StatementFileRows.COLUMNS + " FROM statement_file WHERE id = ?";
  private static final String RETIRE =
      "UPDATE statement_file SET status = 'SUPERSEDED', superseded_by = id"
          + " WHERE id = ? AND status = 'IMPORTED'";
  private static final String POINT =
      "UPDATE statement_file SET superseded_by = ?"
          + " WHERE id = ? AND status = 'SUPERSEDED' AND superseded_by = id";
  private static final String INSERT =
      "INSERT INTO statement_file (account_ref, statement_day, format, sha256, expected_hash,"
          + " status, refused_reason, refused_line, imported_at)"
          + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String LINE_COUNT =
      "UPDATE statement_file SET line_count = ? WHERE id = ? AND status = 'IMPORTED'";

  private final DataSource dataSource;
  private final Clock clock;
  private final StatementFileDialect dialect;
  private final String sameBytes;

  /** The store on PostgreSQL. */
  public JdbcStatementStore(DataSource dataSource, Clock clock) {
    this(dataSource, clock, StatementFileDialect.POSTGRES);
  }

  private JdbcStatementStore(DataSource dataSource, Clock clock, StatementFileDialect dialect) {
    this.dataSource = dataSource;
    this.clock = clock;
    this.dialect = dialect;
    this.sameBytes = SAME_BYTES.formatted(dialect.nullSafeEquals());
  }

  /** The store on the MySQL family (MariaDB 10.11, MySQL 8). */
  public static JdbcStatementStore onMysql(DataSource dataSource, Clock clock) {
    return new JdbcStatementStore(dataSource, clock, StatementFileDialect.MYSQL);
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
    dialect.lock(c, in);
    Optional<StatementFileRecord> same = sameBytes(c, in);
    if (same.isPresent()) {
      return new Outcome(same.get(), null);
    }
    Optional<StatementFileRecord> previous = inForce(c, in.accountRef(), in.day());
    if (previous.isPresent()) {
      exactlyOne(c, RETIRE, ps -> ps.setLong(1, previous.get().id()));
    }
    long fileId = insertFile(c, in, "IMPORTED", null, null);
    if (previous.isPresent()) {
      exactlyOne(
          c,
          POINT,
          ps -> {
            ps.setLong(1, fileId);
            ps.setLong(2, previous.get().id());
          });
    }
    long stored;
    try (StatementLineWriter writer = dialect.lineWriter(c, fileId)) {
      lines.feed(writer::add);
      writer.flush();
      stored = writer.stored();
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
        LINE_COUNT,
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
            dialect.lock(c, in);
            Optional<StatementFileRecord> same = sameBytes(c, in);
            if (same.isPresent()) {
              return same.get();
            }
            long fileId = insertFile(c, in, "REFUSED", Sql.truncate(reason, 500), lineNo);
            return one(c, BY_ID, ps -> ps.setLong(1, fileId)).orElseThrow();
          });
    } catch (SQLException e) {
      throw new StoreException("record refused statement file", e);
    }
  }

  private Optional<StatementFileRecord> sameBytes(Connection c, Incoming in) throws SQLException {
    return one(
        c,
        sameBytes,
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

  /** Inserts the file's row; its id. */
  private long insertFile(Connection c, Incoming in, String status, String reason, Long refusedLine)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT, new String[] {"id"})) {
      ps.setString(1, in.accountRef());
      ps.setObject(2, in.day());
      ps.setString(3, in.format().code());
      ps.setString(4, in.sha256());
      ps.setString(5, in.expectedHash());
      ps.setString(6, status);
      ps.setString(7, reason);
      ps.setObject(8, refusedLine);
      ps.setObject(9, Sql.ts(clock.instant()));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("statement_file row not inserted");
      }
      try (ResultSet keys = ps.getGeneratedKeys()) {
        if (!keys.next()) {
          throw new SQLException("statement_file insert returned no id");
        }
        return keys.getLong(1);
      }
    }
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
