package dev.clearway.store.reconciliation;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.port.DifferenceStore;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Differences in {@code recon_difference}: recorded once per (account, class, identity), each move
 * a compare-and-set on (id, state, version), fenced by the lease owner when one is given, with its
 * history row in the same transaction. The table's guard trigger holds the same state table.
 */
public final class JdbcDifferenceStore implements DifferenceStore {

  private static final String RUN_ACCOUNT = "SELECT account_ref FROM recon_run WHERE id = ?";
  private static final String INSERT =
      """
      INSERT INTO recon_difference (account_ref, statement_day, kind, identity, trade_order_no,
             refund_order_no, flow_id, statement_file_id, statement_line_no, statement_amount,
             local_amount, currency, confidence, state, repair_kind, detail, must_confirm,
             evidence, actionable_at, run_id, last_run_id, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'OPEN', ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """;
  private static final String BY_IDENTITY =
      "SELECT "
          + DifferenceRows.COLUMNS
          + " FROM recon_difference WHERE account_ref = ? AND kind = ? AND identity = ?";
  private static final String BY_ID =
      "SELECT " + DifferenceRows.COLUMNS + " FROM recon_difference WHERE id = ?";
  private static final String BY_IDS =
      "SELECT "
          + DifferenceRows.COLUMNS
          + " FROM recon_difference WHERE id = ANY (?) ORDER BY actionable_at, id";
  // Seen again by a later run: noted on a row nobody holds and no one has finished with.
  private static final String SEEN_AGAIN =
      """
      UPDATE recon_difference SET last_run_id = ?, version = version + 1, updated_at = ?
       WHERE id = ? AND state IN ('OPEN', 'NEEDS_PERSON') AND last_run_id <> ?
         AND (lease_until IS NULL OR lease_until <= ?)
      """;
  // Race: a repairer whose lease expired and was taken over is refused by the owner fence; any
  // writer that read the row before it moved is refused by (state, version).
  private static final String MOVE =
      """
      UPDATE recon_difference
         SET state = ?, version = version + 1, actionable_at = COALESCE(?, actionable_at),
             lease_owner = CASE WHEN ? THEN lease_owner END,
             lease_until = CASE WHEN ? THEN lease_until END, updated_at = ?
       WHERE id = ? AND state = ? AND version = ?
         AND (? IS NULL OR lease_owner = ?)
      """;
  private static final String HISTORY =
      """
      INSERT INTO recon_difference_history (difference_id, version, from_state, to_state, actor,
             detail, at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """;

  private final DataSource dataSource;
  private final Sql sql;
  private final SqlDialect dialect;

  public JdbcDifferenceStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.sql = new Sql(dataSource);
    this.dialect = dialect;
  }

  @Override
  public Recorded record(Found found, Instant now) {
    try {
      return Sql.inTransaction(dataSource, c -> recordIn(c, found, now));
    } catch (SQLException e) {
      throw new StoreException("record difference", e);
    }
  }

  private Recorded recordIn(Connection c, Found found, Instant now) throws SQLException {
    String account = runAccount(c, found.runId());
    String identity = DifferenceIdentity.of(found);
    String kind = found.difference().kind().name();
    boolean created;
    try (PreparedStatement ps =
        c.prepareStatement(dialect.insertIfAbsent(INSERT, "account_ref, kind, identity"))) {
      DifferenceInsert.bind(ps, account, identity, found, now);
      created = dialect.executeIfAbsent(ps);
    }
    RecordedDifference row = byIdentity(c, account, kind, identity);
    if (created) {
      history(
          c, row.id(), 0, null, DifferenceState.OPEN, "run " + found.runId(), row.detail(), now);
      return new Recorded(row, true);
    }
    if (seenAgain(c, row.id(), found.runId(), now)) {
      row = byIdentity(c, account, kind, identity);
    }
    return new Recorded(row, false);
  }

  @Override
  public Optional<RecordedDifference> find(long id) {
    return sql.query(BY_ID, ps -> ps.setLong(1, id), DifferenceRows::map).stream().findFirst();
  }

  @Override
  public List<RecordedDifference> claimDue(
      String owner, Instant leaseUntil, Instant now, int limit) {
    try {
      return Sql.inTransaction(
          dataSource,
          c -> {
            if (dialect instanceof MysqlDialect) {
              return MysqlReconStatements.claimDifferences(
                  c, dialect, owner, leaseUntil, now, limit);
            }
            List<Long> ids = claim(c, owner, leaseUntil, now, limit);
            return ids.isEmpty() ? List.<RecordedDifference>of() : byIds(c, ids);
          });
    } catch (SQLException e) {
      throw new StoreException("claim due differences", e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>A move to the state it is in ({@code from == next}) reschedules the difference: its
   * actionable time is set, the lease released, and a history row written. A move into
   * AUTO_REPAIRING keeps the mover's lease (it repairs under it); every other move releases it.
   *
   * @throws IllegalArgumentException for an edge {@link DifferenceState} does not have
   */
  @Override
  public boolean move(Move m) {
    if (m.from() != m.next() && !m.from().canMoveTo(m.next())) {
      throw new IllegalArgumentException("illegal difference move " + m.from() + " -> " + m.next());
    }
    boolean keepLease = m.next() == DifferenceState.AUTO_REPAIRING && m.from() != m.next();
    try {
      return Sql.inTransaction(
          dataSource,
          c -> {
            int moved;
            try (PreparedStatement ps = c.prepareStatement(MOVE)) {
              ps.setString(1, m.next().name());
              ps.setObject(2, ts(m.actionableAt()));
              ps.setBoolean(3, keepLease);
              ps.setBoolean(4, keepLease);
              ps.setObject(5, ts(m.at()));
              ps.setLong(6, m.id());
              ps.setString(7, m.from().name());
              ps.setLong(8, m.version());
              ps.setString(9, m.owner());
              ps.setString(10, m.owner());
              moved = ps.executeUpdate();
            }
            if (moved != 1) {
              return false;
            }
            history(c, m.id(), m.version() + 1, m.from(), m.next(), m.actor(), m.detail(), m.at());
            return true;
          },
          moved -> moved);
    } catch (SQLException e) {
      throw new StoreException("move difference", e);
    }
  }

  private static String runAccount(Connection c, long runId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(RUN_ACCOUNT)) {
      ps.setLong(1, runId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalArgumentException("no reconciliation run " + runId);
        }
        return rs.getString(1);
      }
    }
  }

  private static RecordedDifference byIdentity(
      Connection c, String account, String kind, String identity) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(BY_IDENTITY)) {
      ps.setString(1, account);
      ps.setString(2, kind);
      ps.setString(3, identity);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("difference neither inserted nor found: " + kind);
        }
        return DifferenceRows.map(rs);
      }
    }
  }

  private static boolean seenAgain(Connection c, long id, long runId, Instant now)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(SEEN_AGAIN)) {
      ps.setLong(1, runId);
      ps.setObject(2, ts(now));
      ps.setLong(3, id);
      ps.setLong(4, runId);
      ps.setObject(5, ts(now));
      return ps.executeUpdate() == 1;
    }
  }

  private List<Long> claim(Connection c, String owner, Instant leaseUntil, Instant now, int limit)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(dialect.claimDifferencesSql())) {
      ps.setObject(1, ts(now));
      ps.setObject(2, ts(now));
      ps.setInt(3, limit);
      ps.setString(4, owner);
      ps.setObject(5, ts(leaseUntil));
      ps.setObject(6, ts(now));
      List<Long> ids = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getLong(1));
        }
      }
      return ids;
    }
  }

  private static List<RecordedDifference> byIds(Connection c, List<Long> ids) throws SQLException {
    Array array = c.createArrayOf("bigint", ids.toArray());
    try (PreparedStatement ps = c.prepareStatement(BY_IDS)) {
      ps.setArray(1, array);
      List<RecordedDifference> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(DifferenceRows.map(rs));
        }
      }
      return rows;
    } finally {
      array.free();
    }
  }

  private static void history(
      Connection c,
      long id,
      long version,
      DifferenceState from,
      DifferenceState to,
      String actor,
      String detail,
      Instant at)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(HISTORY)) {
      ps.setLong(1, id);
      ps.setLong(2, version);
      ps.setString(3, from == null ? null : from.name());
      ps.setString(4, to.name());
      ps.setString(5, Sql.truncate(actor, 96));
      ps.setString(6, Sql.truncate(detail, 500));
      ps.setObject(7, ts(at));
      if (ps.executeUpdate() != 1) {
        throw new SQLException("difference history row not written");
      }
    }
  }
}
