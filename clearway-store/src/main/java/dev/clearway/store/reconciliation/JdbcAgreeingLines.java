package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.port.AgreeingLines;
import dev.clearway.store.CursorStream;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Objects;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The agreeing lines of a file, settled set-based: one statement ({@link
 * SqlDialect#agreeingLinesSql}) selects the file's money lines that do not agree (and the agreeing
 * ones of a refunding flow) into a temporary table of the claim's connection, a handful of rows in
 * a clean file; the agreeing lines are the file's other money lines. One statement records their
 * verdicts as runs of lines, which settle their payments (see {@link AgreeingLinesSql#SETTLE}), and
 * the lines left to the matcher and the unseen movements are read against the file and that table
 * on the same connection. The connection is held for the claim and the table dropped when it
 * closes.
 */
public final class JdbcAgreeingLines implements AgreeingLines {

  /**
   * The file's row, locked so that two reconciliations of one file record their runs one after the
   * other (the second sees the first's); then whether the file has runs already.
   */
  private static final String LOCK_FILE = "SELECT id FROM statement_file WHERE id = ? FOR UPDATE";

  private static final String IN_FORCE =
      "SELECT 1 FROM statement_file WHERE id = ? AND account_ref = ? AND status = 'IMPORTED'";

  private static final String HAS_RUNS =
      "SELECT EXISTS (SELECT 1 FROM statement_line_agreed WHERE file_id = ?)";

  /**
   * The local buffers of a claim's session. The default (8 MB) holds neither the temporary table of
   * a file of a million lines that do not agree nor a hash index on it, whose build then wrote its
   * buckets out to disk and back (17 s against 4.8 s with 128 MB for a million keys, psql on
   * PostgreSQL 15 at load 18–24). They are the session's own memory, taken as the table grows, up
   * to this size.
   */
  private static final String TEMP_BUFFERS = "128MB";

  /** A setting refused: SQLSTATE 22023. */
  private static final String INVALID_PARAMETER_VALUE = "22023";

  /**
   * The columns the agreeing lines and the lines left to the matcher are selected by: their
   * statistics let the planner see the new file's size (the wide raw text needs none).
   */
  private static final String ANALYZE_LINES =
      "ANALYZE statement_line (file_id, line_no, kind, trade_order_no, attempt_key, amount, fee,"
          + " currency, at)";

  /**
   * The lines left to the matcher: the file's lines that did not agree, found by key from the few
   * rows of the table that say so (the agreeing select has already read the whole file once).
   */
  private static final String REMAINING =
      "SELECT "
          + JdbcStatementFacts.COLUMNS
          + JdbcStatementFacts.IN_FORCE
          + " AND l.file_id = ?"
          + " AND l.line_no IN (SELECT g.line_no FROM recon_lines g WHERE NOT g.agreed)"
          + " ORDER BY l.line_no";

  /**
   * Told how long each step of a claim took: {@code select} (the lines that do not agree, with
   * their statistics) and {@code settle} (their settlement rows).
   */
  public interface Steps {
    Steps NONE = (step, nanos) -> {};

    void took(String step, long nanos);
  }

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final String walletAccount;
  private final Steps steps;

  /**
   * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
   */
  public JdbcAgreeingLines(DataSource dataSource, SqlDialect dialect, String walletAccount) {
    this(dataSource, dialect, walletAccount, Steps.NONE);
  }

  /** As above, telling {@code steps} how long each step of a claim took. */
  public JdbcAgreeingLines(
      DataSource dataSource, SqlDialect dialect, String walletAccount, Steps steps) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.walletAccount = Objects.requireNonNull(walletAccount, "walletAccount");
    this.steps = Objects.requireNonNull(steps, "steps");
  }

  @Override
  public Claim claim(long fileId, String account, AccountTerms terms, Instant at) {
    Connection c = null;
    try {
      long t0 = System.nanoTime();
      c = dataSource.getConnection();
      localBuffers(c);
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS recon_lines");
        // A file just copied in has no statistics yet: without them the planner probes the flows
        // once per line instead of joining the two sets by hash.
        st.execute(ANALYZE_LINES);
        st.execute("SET work_mem = '64MB'");
        // The planner's estimate of these few large statements would buy compiling them to
        // machine code, which takes longer than running them.
        st.execute("SET jit = off");
        // The select keeps a line only when its amount, currency and fee equal expressions of the
        // flow's columns, conditions whose selectivity the planner can only guess (a default that
        // estimates one row of a million): a nested loop built on that guess scans the flows once
        // per line. Every side of this select is a whole file or a whole table: hash joins only.
        st.execute("SET enable_nestloop = off");
      }
      try (PreparedStatement ps = c.prepareStatement(dialect.agreeingLinesSql())) {
        ps.setBoolean(1, inForce(c, fileId, account));
        ps.setLong(2, terms.feeRatePpm());
        ps.setLong(3, terms.fixedFeeMinor());
        ps.setLong(4, fileId);
        ps.executeUpdate();
      }
      try (Statement st = c.createStatement()) {
        // The reads that follow probe by index the few rows they keep.
        st.execute("RESET enable_nestloop");
        // The file's lines are probed by line number against it: an index, whatever its size.
        st.execute("CREATE INDEX ON recon_lines (line_no)");
        st.execute("ANALYZE recon_lines");
      }
      long t1 = System.nanoTime();
      long agreed = settle(c, fileId, at);
      c.commit();
      steps.took("select", t1 - t0);
      steps.took("settle", System.nanoTime() - t1);
      c.setAutoCommit(true);
      return new JdbcClaim(c, fileId, account, agreed);
    } catch (SQLException | RuntimeException e) {
      release(c);
      throw e instanceof SQLException s
          ? new StoreException("agreeing lines", s)
          : (RuntimeException) e;
    }
  }

  /**
   * Gives the session the local buffers {@link #TEMP_BUFFERS} for the temporary table and its
   * index. PostgreSQL takes the setting only before the session's first temporary table, or when it
   * is the size the session has (so every claim after the first on a connection sets it again, and
   * it is never reset); a session that used temporary tables at another size keeps its own
   * (SQLSTATE 22023), and the claim runs as before, only slower.
   */
  private static void localBuffers(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute("SET temp_buffers = '" + TEMP_BUFFERS + "'");
    } catch (SQLException e) {
      if (!INVALID_PARAMETER_VALUE.equals(e.getSQLState())) {
        throw e;
      }
    }
  }

  /** Whether the file is IMPORTED for the account: no line of another file agrees. */
  private static boolean inForce(Connection c, long fileId, String account) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(IN_FORCE)) {
      ps.setLong(1, fileId);
      ps.setString(2, account);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /**
   * Records the runs of agreeing lines of the file, which settle their payments; answers the number
   * of agreeing lines.
   */
  private static long settle(Connection c, long fileId, Instant at) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(LOCK_FILE)) {
      ps.setLong(1, fileId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("statement file " + fileId + " not found");
        }
      }
    }
    boolean again;
    try (PreparedStatement ps = c.prepareStatement(HAS_RUNS)) {
      ps.setLong(1, fileId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        again = rs.getBoolean(1);
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(again ? AgreeingLinesSql.SETTLE_UNCOVERED : AgreeingLinesSql.SETTLE)) {
      int i = 1;
      ps.setLong(i++, fileId);
      if (again) {
        ps.setLong(i++, fileId);
      }
      ps.setLong(i++, fileId);
      ps.setObject(i, ts(at));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static void release(Connection c) {
    if (c == null) {
      return;
    }
    try (c) {
      if (!c.getAutoCommit()) {
        c.rollback();
        c.setAutoCommit(true);
      }
      try (Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS recon_lines");
        st.execute("RESET work_mem");
        st.execute("RESET jit");
        st.execute("RESET enable_nestloop");
      }
    } catch (SQLException e) {
      throw new StoreException("release agreeing lines", e);
    }
  }

  private final class JdbcClaim implements Claim {
    private final Connection c;
    private final long fileId;
    private final String account;
    private final long agreed;

    JdbcClaim(Connection c, long fileId, String account, long agreed) {
      this.c = c;
      this.fileId = fileId;
      this.account = account;
      this.agreed = agreed;
    }

    @Override
    public long agreed() {
      return agreed;
    }

    @Override
    public Stream<StatementFact> remaining() {
      return CursorStream.onConnection(
          c,
          REMAINING,
          ps -> {
            ps.setString(1, account);
            ps.setLong(2, fileId);
          },
          JdbcStatementFacts::map);
    }

    @Override
    public Stream<Unseen> unseen(Instant from, Instant to) {
      boolean wallet = walletAccount.equals(account);
      return CursorStream.onConnection(
          c,
          AgreeingLinesSql.UNSEEN,
          ps -> {
            ps.setLong(1, fileId);
            JdbcLocalFacts.bindMovements(ps, 2, account, wallet, from, to);
            ps.setString(12, account);
            ps.setObject(13, ts(from));
            ps.setObject(14, ts(to));
          },
          rs -> new Unseen(LocalFactRows.map(rs, walletAccount), rs.getBoolean("charge_shown")));
    }

    @Override
    public void close() {
      release(c);
    }
  }
}
