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
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Objects;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The agreeing lines of a file, settled set-based: one statement ({@link
 * SqlDialect#agreeingLinesSql}) selects them into a temporary table of the claim's connection, one
 * statement writes their settlement rows and history rows, and the lines left to the matcher and
 * the unseen movements are read against that table on the same connection. The connection is held
 * for the claim and the table dropped when it closes.
 */
public final class JdbcAgreeingLines implements AgreeingLines {

  private static final String SETTLE =
      """
      -- A trade order on two agreeing lines is inserted once: the second conflicts with the first.
      WITH added AS (
        INSERT INTO payment_settlement (trade_order_no, status, difference_id, statement_file_id,
               statement_line_no, version, updated_at)
        SELECT trade_order_no, 'SETTLED', NULL::bigint, ?::bigint, NULL::bigint, 0,
               ?::timestamptz
          FROM recon_agreed
        ON CONFLICT (trade_order_no) DO NOTHING
        RETURNING trade_order_no, status, statement_file_id, updated_at)
      INSERT INTO payment_settlement_history (trade_order_no, version, from_status, to_status,
             difference_id, statement_file_id, statement_line_no, at)
      SELECT trade_order_no, 0, NULL, status, NULL, statement_file_id, NULL, updated_at
        FROM added
      """;

  private static final String REMAINING =
      "SELECT "
          + JdbcStatementFacts.COLUMNS
          + JdbcStatementFacts.IN_FORCE
          + " AND l.file_id = ?"
          + " AND NOT EXISTS (SELECT 1 FROM recon_agreed g WHERE g.line_no = l.line_no)"
          + " ORDER BY l.line_no";

  /**
   * A view whose charge an agreeing line showed is dropped unless it answers for a refund too (a
   * refund order's view, or a REFUNDED flow's own refund): that one comes with charge_shown.
   */
  private static final String UNSEEN =
      JdbcLocalFacts.movements(
          "NOT EXISTS (SELECT 1 FROM recon_agreed g"
              + " WHERE g.trade_order_no = f.trade_order_no AND f.status <> 'REFUNDED')",
          "EXISTS (SELECT 1 FROM recon_agreed g WHERE g.trade_order_no = f.trade_order_no)");

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final String walletAccount;

  /**
   * @param walletAccount the account of flows paid through the plain wallet (no channel attempt)
   */
  public JdbcAgreeingLines(DataSource dataSource, SqlDialect dialect, String walletAccount) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.walletAccount = Objects.requireNonNull(walletAccount, "walletAccount");
  }

  @Override
  public Claim claim(long fileId, String account, AccountTerms terms, Instant at) {
    Connection c = null;
    try {
      c = dataSource.getConnection();
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS recon_agreed");
        // A file just copied in has no statistics yet: without them the planner probes the flows
        // once per line instead of joining the two sets by hash.
        st.execute("ANALYZE statement_line");
        st.execute("SET work_mem = '64MB'");
      }
      long agreed;
      try (PreparedStatement ps = c.prepareStatement(dialect.agreeingLinesSql())) {
        ps.setLong(1, fileId);
        ps.setString(2, account);
        ps.setLong(3, terms.feeRatePpm());
        ps.setLong(4, terms.fixedFeeMinor());
        agreed = ps.executeUpdate();
      }
      try (Statement st = c.createStatement()) {
        // charge_shown probes the table once per movement kept: an index, whatever its size.
        st.execute("CREATE INDEX ON recon_agreed (trade_order_no)");
        st.execute("ANALYZE recon_agreed");
      }
      try (PreparedStatement ps = c.prepareStatement(SETTLE)) {
        ps.setLong(1, fileId);
        ps.setObject(2, ts(at));
        ps.executeUpdate();
      }
      c.commit();
      c.setAutoCommit(true);
      return new JdbcClaim(c, fileId, account, agreed);
    } catch (SQLException | RuntimeException e) {
      release(c);
      throw e instanceof SQLException s
          ? new StoreException("agreeing lines", s)
          : (RuntimeException) e;
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
        st.execute("DROP TABLE IF EXISTS recon_agreed");
        st.execute("RESET work_mem");
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
          UNSEEN,
          ps -> JdbcLocalFacts.bindMovements(ps, account, wallet, from, to),
          rs -> new Unseen(LocalFactRows.map(rs, walletAccount), rs.getBoolean("charge_shown")));
    }

    @Override
    public void close() {
      release(c);
    }
  }
}
