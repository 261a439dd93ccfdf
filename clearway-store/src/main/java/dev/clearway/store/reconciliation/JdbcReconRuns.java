package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.reconciliation.domain.ReconRunStatus;
import dev.clearway.core.reconciliation.port.ReconRuns;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Runs in {@code recon_run}. One RUNNING run per account-day is held by a partial unique index; a
 * start takes over a RUNNING run whose lease expired, or inserts a new one, or answers empty when
 * another owner holds a live lease. Renewal, finish and failure are fenced by the owner: a node
 * whose run was taken over writes nothing.
 */
public final class JdbcReconRuns implements ReconRuns {

  private static final String COLUMNS =
      "id, account_ref, statement_day, file_id, status, lease_owner, lease_until, lines,"
          + " differences, new_differences, auto_repaired, tickets, error, started_at, finished_at";
  // Race: two nodes taking over the same expired run both match it; the row lock makes the second
  // re-check the lease after the first committed, so it finds the lease live and moves nothing.
  private static final String TAKE_OVER =
      """
      UPDATE recon_run SET lease_owner = ?, lease_until = ?, file_id = ?, version = version + 1
       WHERE account_ref = ? AND statement_day = ? AND status = 'RUNNING' AND lease_until <= ?
      """;
  private static final String INSERT =
      """
      INSERT INTO recon_run (account_ref, statement_day, file_id, status, lease_owner,
             lease_until, started_at)
      VALUES (?, ?, ?, 'RUNNING', ?, ?, ?)
      """;
  private static final String HELD =
      "SELECT "
          + COLUMNS
          + " FROM recon_run WHERE account_ref = ? AND statement_day = ? AND status = 'RUNNING'"
          + " AND lease_owner = ?";
  private static final String RENEW =
      "UPDATE recon_run SET lease_until = ?, version = version + 1"
          + " WHERE id = ? AND status = 'RUNNING' AND lease_owner = ?";
  private static final String FINISH =
      """
      UPDATE recon_run SET status = 'DONE', lines = ?, differences = ?, new_differences = ?,
             auto_repaired = ?, tickets = ?, finished_at = ?, version = version + 1
       WHERE id = ? AND status = 'RUNNING' AND lease_owner = ?
      """;
  private static final String FAIL =
      """
      UPDATE recon_run SET status = 'FAILED', error = ?, finished_at = ?, version = version + 1
       WHERE id = ? AND status = 'RUNNING' AND lease_owner = ?
      """;
  private static final String LATEST =
      "SELECT * FROM (SELECT DISTINCT ON (account_ref) "
          + COLUMNS
          + " FROM recon_run ORDER BY account_ref, id DESC) latest ORDER BY id DESC";
  private static final String BY_ID = "SELECT " + COLUMNS + " FROM recon_run WHERE id = ?";

  private final DataSource dataSource;
  private final Sql sql;
  private final SqlDialect dialect;
  private final String held;
  private final String finish;
  private final String latest;
  private final String byId;

  public JdbcReconRuns(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.dialect = dialect;
    boolean mysql = dialect instanceof MysqlDialect;
    this.held = mysql ? MysqlReconStatements.RUN_HELD : HELD;
    this.finish = mysql ? MysqlReconStatements.RUN_FINISH : FINISH;
    this.latest = mysql ? MysqlReconStatements.RUN_LATEST : LATEST;
    this.byId = mysql ? MysqlReconStatements.RUN_BY_ID : BY_ID;
  }

  @Override
  public Optional<ReconRun> start(
      String account, LocalDate day, Long fileId, String owner, Instant leaseUntil, Instant now) {
    int took =
        sql.update(
            TAKE_OVER,
            ps -> {
              ps.setString(1, owner);
              ps.setObject(2, ts(leaseUntil));
              ps.setObject(3, fileId);
              ps.setString(4, account);
              ps.setObject(5, day);
              ps.setObject(6, ts(now));
            });
    if (took == 0) {
      insertRunning(account, day, fileId, owner, leaseUntil, now);
    }
    // Whichever way it went, the run is this owner's only if the RUNNING row names it.
    return sql
        .query(
            held,
            ps -> {
              ps.setString(1, account);
              ps.setObject(2, day);
              ps.setString(3, owner);
            },
            JdbcReconRuns::map)
        .stream()
        .findFirst();
  }

  /** Inserts the account-day's RUNNING run unless one exists (then nothing is written). */
  private void insertRunning(
      String account, LocalDate day, Long fileId, String owner, Instant leaseUntil, Instant now) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(dialect.insertIfAbsentAnyKey(INSERT))) {
      ps.setString(1, account);
      ps.setObject(2, day);
      ps.setObject(3, fileId);
      ps.setString(4, owner);
      ps.setObject(5, ts(leaseUntil));
      ps.setObject(6, ts(now));
      dialect.executeIfAbsent(ps);
    } catch (SQLException e) {
      throw new StoreException("start reconciliation run", e);
    }
  }

  @Override
  public boolean renew(long runId, String owner, Instant leaseUntil) {
    return sql.update(
            RENEW,
            ps -> {
              ps.setObject(1, ts(leaseUntil));
              ps.setLong(2, runId);
              ps.setString(3, owner);
            })
        == 1;
  }

  @Override
  public boolean finish(long runId, String owner, ReconCounts counts, Instant now) {
    return sql.update(
            finish,
            ps -> {
              ps.setLong(1, counts.lines());
              ps.setLong(2, counts.differences());
              ps.setLong(3, counts.newDifferences());
              ps.setLong(4, counts.autoRepaired());
              ps.setLong(5, counts.tickets());
              ps.setObject(6, ts(now));
              ps.setLong(7, runId);
              ps.setString(8, owner);
            })
        == 1;
  }

  @Override
  public boolean fail(long runId, String owner, String error, Instant now) {
    return sql.update(
            FAIL,
            ps -> {
              ps.setString(1, Sql.truncate(error == null ? "failed" : error, 500));
              ps.setObject(2, ts(now));
              ps.setLong(3, runId);
              ps.setString(4, owner);
            })
        == 1;
  }

  @Override
  public List<ReconRun> latestPerAccount() {
    return sql.query(latest, ps -> {}, JdbcReconRuns::map);
  }

  @Override
  public Optional<ReconRun> find(long runId) {
    return sql.query(byId, ps -> ps.setLong(1, runId), JdbcReconRuns::map).stream().findFirst();
  }

  private static ReconRun map(ResultSet rs) throws SQLException {
    return new ReconRun(
        rs.getLong("id"),
        rs.getString("account_ref"),
        rs.getObject("statement_day", LocalDate.class),
        DifferenceRows.nullableLong(rs, "file_id"),
        ReconRunStatus.valueOf(rs.getString("status")),
        rs.getString("lease_owner"),
        LocalFactRows.instant(rs, "lease_until"),
        new ReconCounts(
            rs.getLong("lines"),
            rs.getLong("differences"),
            rs.getLong("new_differences"),
            rs.getLong("auto_repaired"),
            rs.getLong("tickets")),
        rs.getString("error"),
        LocalFactRows.instant(rs, "started_at"),
        LocalFactRows.instant(rs, "finished_at"));
  }
}
