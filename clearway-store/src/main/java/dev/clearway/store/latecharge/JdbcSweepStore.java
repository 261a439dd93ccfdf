package dev.clearway.store.latecharge;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.port.SweepStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Sql;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * {@link SweepStore} over JDBC: one late_charge_sweep row per stage, and the ended flows read
 * through idx_pay_flow_ended_unpaid in the order they ended.
 */
public final class JdbcSweepStore implements SweepStore {
  /** Parameters: the cursor's end time and flow id, the upper bound, the limit. */
  private static final String ENDED_FLOWS =
      """
      SELECT id, trade_order_no, amount, updated_at FROM pay_flow
       WHERE status IN ('PAY_FAIL', 'CLOSED')
         AND (updated_at, id) > (?, ?)
         AND updated_at <= ?
         AND trade_order_no IS NOT NULL
       ORDER BY updated_at, id
       LIMIT ?
      """;

  /**
   * The same page on a sharded database: the view written out as the binding pair of the flow's
   * tables, and the row comparison as its expansion (parameters: the cursor's end time twice, its
   * flow id, the upper bound, the limit). It runs on every shard; the pages merge by the ORDER BY.
   */
  private static final String SHARDED_ENDED_FLOWS =
      """
      SELECT id, trade_order_no, amount, updated_at
        FROM pay_flow_fact JOIN pay_flow_state USING (id)
       WHERE status IN ('PAY_FAIL', 'CLOSED')
         AND (updated_at > ? OR (updated_at = ? AND id > ?))
         AND updated_at <= ?
         AND trade_order_no IS NOT NULL
       ORDER BY updated_at, id
       LIMIT ?
      """;

  private static final String COUNT_ENDED =
      """
      SELECT count(*) FROM pay_flow
       WHERE status IN ('PAY_FAIL', 'CLOSED')
         AND (updated_at, id) > (?, ?)
         AND updated_at < ?
      """;

  /** The count on a sharded database: the state table alone holds the columns it reads. */
  private static final String SHARDED_COUNT_ENDED =
      """
      SELECT count(*) FROM pay_flow_state
       WHERE status IN ('PAY_FAIL', 'CLOSED')
         AND (updated_at > ? OR (updated_at = ? AND id > ?))
         AND updated_at < ?
      """;

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final Sql sql;

  /** A store on PostgreSQL. */
  public JdbcSweepStore(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcSweepStore(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.sql = new Sql(dataSource);
  }

  @Override
  public Optional<Cursor> claimStage(Duration stage, Cursor initial, Lease lease, Instant now) {
    try (Connection c = dataSource.getConnection()) {
      try (PreparedStatement ps =
          c.prepareStatement(
              dialect.insertIfAbsent(
                  """
                  INSERT INTO late_charge_sweep (stage_age_ms, cursor_ended_at, cursor_flow_id,
                                                 updated_at)
                  VALUES (?, ?, ?, ?)
                  """,
                  "stage_age_ms"))) {
        ps.setLong(1, stage.toMillis());
        ps.setObject(2, ts(initial.endedAt()));
        ps.setLong(3, initial.flowId());
        ps.setObject(4, ts(now));
        dialect.executeIfAbsent(ps);
      }
      // Race: two sweepers claim the same stage; the row lock lets one update through while the
      // lease is free or expired, the other sees 0 rows.
      return dialect.updateReturning(
          c,
          """
          UPDATE late_charge_sweep SET lease_owner = ?, lease_until = ?, updated_at = ?
           WHERE stage_age_ms = ? AND (lease_owner IS NULL OR lease_until <= ?)
          """,
          ps -> {
            ps.setString(1, lease.token());
            ps.setObject(2, ts(lease.until()));
            ps.setObject(3, ts(now));
            ps.setLong(4, stage.toMillis());
            ps.setObject(5, ts(now));
          },
          new SqlDialect.RowRef("late_charge_sweep", "stage_age_ms", stage.toMillis()),
          "cursor_ended_at, cursor_flow_id",
          rs ->
              new Cursor(
                  LateChargeRows.instant(rs, "cursor_ended_at"), rs.getLong("cursor_flow_id")));
    } catch (SQLException e) {
      throw new StoreException("claim late-charge sweep stage", e);
    }
  }

  @Override
  public List<EndedFlow> endedFlows(Cursor after, Instant upTo, int limit) {
    return sql.query(
        dialect.sharded() ? SHARDED_ENDED_FLOWS : ENDED_FLOWS,
        ps -> {
          int i = cursor(ps, after);
          ps.setObject(i, ts(upTo));
          ps.setInt(i + 1, limit);
        },
        rs ->
            new EndedFlow(
                rs.getLong("id"),
                rs.getString("trade_order_no"),
                rs.getLong("amount"),
                LateChargeRows.instant(rs, "updated_at")));
  }

  @Override
  public long countEnded(Cursor after, Instant upTo) {
    return sql.query(
            dialect.sharded() ? SHARDED_COUNT_ENDED : COUNT_ENDED,
            ps -> ps.setObject(cursor(ps, after), ts(upTo)),
            rs -> rs.getLong(1))
        .get(0);
  }

  @Override
  public boolean advance(Duration stage, Cursor to, String token, Instant leaseUntil, Instant now) {
    return sql.update(
            """
            UPDATE late_charge_sweep
               SET cursor_ended_at = ?, cursor_flow_id = ?, lease_until = ?, updated_at = ?
             WHERE stage_age_ms = ? AND lease_owner = ?
            """,
            ps -> {
              ps.setObject(1, ts(to.endedAt()));
              ps.setLong(2, to.flowId());
              ps.setObject(3, ts(leaseUntil));
              ps.setObject(4, ts(now));
              ps.setLong(5, stage.toMillis());
              ps.setString(6, token);
            })
        == 1;
  }

  @Override
  public void release(Duration stage, String token) {
    // 0 rows: the lease was taken over meanwhile; the new holder keeps it.
    sql.update(
        """
        UPDATE late_charge_sweep SET lease_owner = NULL, lease_until = NULL
         WHERE stage_age_ms = ? AND lease_owner = ?
        """,
        ps -> {
          ps.setLong(1, stage.toMillis());
          ps.setString(2, token);
        });
  }

  /** Binds the cursor of the statement in use; returns the next parameter index. */
  private int cursor(PreparedStatement ps, Cursor after) throws SQLException {
    ps.setObject(1, ts(after.endedAt()));
    if (!dialect.sharded()) {
      ps.setLong(2, after.flowId());
      return 3;
    }
    ps.setObject(2, ts(after.endedAt()));
    ps.setLong(3, after.flowId());
    return 4;
  }
}
