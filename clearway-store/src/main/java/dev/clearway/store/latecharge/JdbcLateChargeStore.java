package dev.clearway.store.latecharge;

import static dev.clearway.store.Sql.truncate;
import static dev.clearway.store.Sql.ts;
import static dev.clearway.store.latecharge.LateChargeRows.COLUMNS;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeTransitions;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.store.LeasedTable;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@link LateChargeStore} over JDBC. The insert-if-absent, the transition and the page claim are
 * the dialect's ({@link SqlDialect}); claims and reschedules are the leased-table statements
 * ({@link LeasedTable}). SQL stays next to its parameters; every update count is checked; every
 * state write carries {@code lease_owner = ?} with the writer's token.
 */
public final class JdbcLateChargeStore implements LateChargeStore {
  private static final int CODE_MAX = 64;
  private static final int RESULT_MAX = 32;

  /**
   * Inserts a PENDING check due at once for a flow that ended without payment, unless the flow has
   * one. The flow's status is read in the inserting statement, so a check exists only for a flow
   * that was PAY_FAIL or CLOSED (both terminal) when it was written; {@code uk_late_charge_flow}
   * keeps one per flow ({@link SqlDialect#insertIfAbsent}). Parameters: source, now, now, now, flow
   * id.
   */
  static final String SUSPECT_SQL =
      """
      INSERT INTO late_charge_check (flow_id, merchant_id, trade_order_no, source, status,
                                     next_check_time, created_at, updated_at)
      SELECT id, merchant_id, trade_order_no, ?, 'PENDING', ?, ?, ?
        FROM pay_flow
       WHERE id = ? AND status IN ('PAY_FAIL', 'CLOSED') AND trade_order_no IS NOT NULL
      """;

  /**
   * The flow a suspicion is about, on a sharded database: an INSERT … SELECT from a sharded table
   * into the single late_charge_check is refused there, so the ended flow is read first (the
   * binding pair of the flow's tables, routed by its id) and the check inserted from its values.
   */
  static final String SUSPECTED_FLOW_SQL =
      """
      SELECT merchant_id, trade_order_no FROM pay_flow_fact JOIN pay_flow_state USING (id)
       WHERE id = ? AND status IN ('PAY_FAIL', 'CLOSED') AND trade_order_no IS NOT NULL
      """;

  /** Parameters: flow id, merchant, trade order number, source, now, now, now. */
  static final String SUSPECT_VALUES_SQL =
      """
      INSERT INTO late_charge_check (flow_id, merchant_id, trade_order_no, source, status,
                                     next_check_time, created_at, updated_at)
      VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?)
      """;

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Sql sql;
  private final LeasedTable leased;

  /** A store on PostgreSQL. */
  public JdbcLateChargeStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcLateChargeStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dataSource);
    this.leased = new LeasedTable(LeasedTable.LATE_CHARGE_CHECK, sql, dialect);
  }

  /**
   * Records the suspicion on {@code c}, inside the caller's transaction (the callback inbox commits
   * its event and the check together). Returns true when a check was inserted.
   */
  public static boolean suspect(
      Connection c, SqlDialect dialect, long flowId, SuspicionSource source, Instant now)
      throws SQLException {
    if (dialect.sharded()) {
      return suspectFromValues(c, dialect, flowId, source, now);
    }
    try (PreparedStatement ps =
        c.prepareStatement(dialect.insertIfAbsent(SUSPECT_SQL, "flow_id"))) {
      ps.setString(1, source.name());
      ps.setObject(2, ts(now));
      ps.setObject(3, ts(now));
      ps.setObject(4, ts(now));
      ps.setLong(5, flowId);
      return dialect.executeIfAbsent(ps);
    }
  }

  private static boolean suspectFromValues(
      Connection c, SqlDialect dialect, long flowId, SuspicionSource source, Instant now)
      throws SQLException {
    String merchant;
    String tradeOrderNo;
    try (PreparedStatement ps = c.prepareStatement(SUSPECTED_FLOW_SQL)) {
      ps.setLong(1, flowId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return false;
        }
        merchant = rs.getString(1);
        tradeOrderNo = rs.getString(2);
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(dialect.insertIfAbsent(SUSPECT_VALUES_SQL, "flow_id"))) {
      ps.setLong(1, flowId);
      ps.setString(2, merchant);
      ps.setString(3, tradeOrderNo);
      ps.setString(4, source.name());
      ps.setObject(5, ts(now));
      ps.setObject(6, ts(now));
      ps.setObject(7, ts(now));
      return dialect.executeIfAbsent(ps);
    }
  }

  @Override
  public Optional<Suspected> suspect(long flowId, SuspicionSource source, Instant now) {
    boolean created;
    try (Connection c = dataSource.getConnection()) {
      created = suspect(c, dialect, flowId, source, now);
    } catch (SQLException e) {
      throw new StoreException("record late-charge suspicion", e);
    }
    // Race: a callback and the sweep may record the same flow at once; uk_late_charge_flow lets
    // one insert through and the other finds that row here.
    return findByFlow(flowId).map(check -> new Suspected(check, created));
  }

  @Override
  public Optional<LateChargeCheck> find(long checkId) {
    return query(
            "SELECT " + COLUMNS + " FROM late_charge_check WHERE id = ?",
            ps -> ps.setLong(1, checkId))
        .stream()
        .findFirst();
  }

  @Override
  public Optional<LateChargeCheck> findByFlow(long flowId) {
    return query(
            "SELECT " + COLUMNS + " FROM late_charge_check WHERE flow_id = ?",
            ps -> ps.setLong(1, flowId))
        .stream()
        .findFirst();
  }

  @Override
  public boolean claim(long checkId, Lease lease, Instant now) {
    return leased.claim(checkId, lease, now);
  }

  @Override
  public List<Long> claimDue(long afterId, int limit, Lease lease, Instant now) {
    return leased.claimDue(afterId, limit, lease, now);
  }

  @Override
  public Optional<LateChargeCheck> transition(TransitionWrite w) {
    LateChargeCheck from = w.from();
    LateChargeTransitions.requireLegal(from.status(), w.to());
    // Fenced: (status, version) and the writer's lease. A worker whose lease expired and was taken
    // over updates 0 rows and changes nothing.
    try (Connection c = dataSource.getConnection()) {
      return dialect.updateReturning(
          c,
          """
          UPDATE late_charge_check
             SET status = ?, version = version + 1, retry_count = 0, next_check_time = ?,
                 lease_owner = ?, last_result = ?, last_error_code = ?,
                 refund_id = COALESCE(?, refund_id), updated_at = ?
           WHERE id = ? AND status = ? AND version = ? AND lease_owner = ?
          """,
          ps -> {
            ps.setString(1, w.to().name());
            ps.setObject(2, ts(w.nextCheckTime()));
            ps.setString(3, w.nextLeaseOwner());
            ps.setString(4, truncate(w.resultClass(), RESULT_MAX));
            ps.setString(5, truncate(w.errorCode(), CODE_MAX));
            ps.setObject(6, w.refundId());
            ps.setObject(7, ts(w.now()));
            ps.setLong(8, from.id());
            ps.setString(9, from.status().name());
            ps.setLong(10, from.version());
            ps.setString(11, w.writerToken());
          },
          new SqlDialect.RowRef("late_charge_check", "id", from.id()),
          COLUMNS,
          LateChargeRows::map);
    } catch (SQLException e) {
      throw new StoreException("late-charge transition", e);
    }
  }

  @Override
  public boolean reschedule(RescheduleWrite w) {
    LateChargeCheck from = w.from();
    return leased.reschedule(
        "retry_count = retry_count + 1, next_check_time = ?, last_result = ?,"
            + " last_error_code = ?, updated_at = ?",
        ps -> {
          ps.setObject(1, ts(w.nextCheckTime()));
          ps.setString(2, truncate(w.resultClass(), RESULT_MAX));
          ps.setString(3, truncate(w.errorCode(), CODE_MAX));
          ps.setObject(4, ts(w.now()));
          return 5;
        },
        from.id(),
        from.status().name(),
        from.version(),
        w.writerToken());
  }

  private List<LateChargeCheck> query(String statement, Sql.Binder binder) {
    return sql.query(statement, binder, LateChargeRows::map);
  }
}
