package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.DomainEvent;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The flow's writes on the MySQL family, which has neither data-modifying CTEs nor {@code
 * RETURNING}: each write is the statements PostgreSQL's one statement holds, in one transaction
 * (one commit). The guards are the tables' triggers, as on PostgreSQL.
 */
final class MysqlFlowWrites implements FlowWrites {

  /** The outbox payload of a flow event, built from the pay_flow row just written. */
  static final String EVENT_PAYLOAD =
      "JSON_OBJECT('flowId', id, 'merchantId', merchant_id, 'userId', user_id, 'scene', scene,"
          + " 'bizKey', biz_key, 'attemptNo', attempt_no, 'tradeOrderNo', trade_order_no,"
          + " 'refundOrderNo', refund_order_no, 'amount', amount, 'currency', currency,"
          + " 'status', status, 'version', version)";

  private static final String HISTORY_FROM_FLOW =
      """
      INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no, refund_order_no,
             from_status, to_status, version, trigger_source, request_id, result_class, error_code,
             elapsed_ms, created_at)
      SELECT id, biz_key, attempt_no, trade_order_no, refund_order_no, ?, status, version,
             ?, ?, ?, ?, ?, ?
        FROM pay_flow WHERE id = ?
      """;

  /**
   * A creation's reads: the goal's attempts in both tables (an archived attempt still counts for
   * attempt_no, and an archived success still answers its goal).
   */
  private static final MysqlFlowCreation.Reads READS =
      (c, goal) ->
          query(
              c,
              JdbcFlowStore.goalInBothTables(" ORDER BY attempt_no"),
              ps -> JdbcFlowStore.bindGoalTwice(ps, goal));

  private final DataSource dataSource;

  MysqlFlowWrites(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public CreateResult create(NewPayment payment, Lease lease, Instant now, boolean started)
      throws SQLException {
    // One transaction, one commit. Race: two creators of one goal both find no open attempt and
    // insert the same attempt_no; uk_biz_attempt (or uk_live_attempt) makes the later one wait for
    // the earlier and fail with a duplicate key, and the caller reads again.
    return Sql.inTransaction(
        dataSource, c -> MysqlFlowCreation.create(c, payment, lease, now, started, READS));
  }

  @Override
  public Optional<PayFlow> transition(TransitionWrite w) {
    try {
      return Sql.inTransaction(dataSource, c -> transition(c, w));
    } catch (SQLException e) {
      throw new StoreException("transition flow " + w.from().id(), e);
    }
  }

  private static Optional<PayFlow> transition(Connection c, TransitionWrite w) throws SQLException {
    PayFlow from = w.from();
    // The same CAS and fences as PostgreSQL's statement: (status, version), not frozen, and the
    // writer's own lease token (null: a command, fenced by the version alone).
    int moved =
        update(
            c,
            """
            UPDATE pay_flow_state
               SET status = ?, version = version + 1, retry_count = 0, next_retry_time = ?,
                   lease_owner = ?, last_error_code = ?,
                   channel_request_id = COALESCE(?, channel_request_id),
                   review_reason = CASE WHEN review_state = 'ESCALATED' THEN NULL
                                        ELSE review_reason END,
                   review_state = CASE WHEN review_state = 'ESCALATED' THEN 'NONE'
                                       ELSE review_state END,
                   updated_at = ?
             WHERE id = ? AND status = ? AND version = ? AND review_state <> 'FROZEN'
               AND (? IS NULL OR lease_owner = ?)
            """,
            ps -> {
              int i = 1;
              ps.setString(i++, w.to().name());
              ps.setObject(i++, ts(w.nextRetryTime()));
              ps.setString(i++, w.leaseToken());
              ps.setString(i++, w.errorCode());
              ps.setString(i++, w.note().requestId());
              ps.setObject(i++, ts(w.now()));
              ps.setLong(i++, from.id());
              ps.setString(i++, from.status().name());
              ps.setLong(i++, from.version());
              ps.setString(i++, w.holder());
              ps.setString(i, w.holder());
            });
    if (moved == 0) {
      // Someone else moved the row, or the writer no longer holds its lease: nothing written.
      return Optional.empty();
    }
    requireOne(
        update(
            c,
            HISTORY_FROM_FLOW,
            ps -> {
              int i = 1;
              ps.setString(i++, from.status().name());
              ps.setString(i++, w.note().trigger().name());
              ps.setString(i++, w.note().requestId());
              ps.setString(i++, w.note().resultClass());
              ps.setString(i++, w.errorCode());
              ps.setLong(i++, w.note().elapsedMillis());
              ps.setObject(i++, ts(w.now()));
              ps.setLong(i, from.id());
            }),
        "history of " + from.id());
    Optional<DomainEvent> event = DomainEvent.onEntering(w.to());
    if (event.isPresent()) {
      requireOne(insertEvent(c, from.id(), event.get(), w.now()), "event of " + from.id());
    }
    return Optional.of(read(c, from.id()));
  }

  /** The outbox row of a flow's event, built from the row as written; its update count. */
  static int insertEvent(Connection c, long flowId, DomainEvent event, Instant now)
      throws SQLException {
    return update(
        c,
        "INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,"
            + " created_at) SELECT CONCAT('flow-', id, '-v', version), ?, id, merchant_id, "
            + EVENT_PAYLOAD
            + ", ? FROM pay_flow WHERE id = ?",
        ps -> {
          ps.setString(1, event.name());
          ps.setObject(2, ts(now));
          ps.setLong(3, flowId);
        });
  }

  @Override
  public void assignOrderNumbers(long flowId, OrderNumbers numbers, Instant now) {
    try {
      Sql.inTransaction(
          dataSource,
          c -> {
            // 0 rows is fine: the numbers were already there (written by the creator or a peer).
            int numbered =
                update(
                    c,
                    "UPDATE pay_flow_fact SET trade_order_no = ?, refund_order_no = ?"
                        + " WHERE id = ? AND trade_order_no IS NULL",
                    ps -> {
                      ps.setString(1, numbers.tradeOrderNo());
                      ps.setString(2, numbers.refundOrderNo());
                      ps.setLong(3, flowId);
                    });
            if (numbered == 1) {
              update(
                  c,
                  "UPDATE pay_flow_state SET updated_at = ? WHERE id = ?",
                  ps -> {
                    ps.setObject(1, ts(now));
                    ps.setLong(2, flowId);
                  });
            }
            return numbered;
          });
    } catch (SQLException e) {
      throw new StoreException("assign order numbers of flow " + flowId, e);
    }
  }

  private static PayFlow read(Connection c, long id) throws SQLException {
    List<PayFlow> rows =
        query(c, "SELECT " + FLOW_COLUMNS + " FROM pay_flow WHERE id = ?", ps -> ps.setLong(1, id));
    if (rows.isEmpty()) {
      throw new SQLException("flow " + id + " vanished inside its own transaction");
    }
    return rows.get(0);
  }

  private static List<PayFlow> query(Connection c, String sql, Sql.Binder binder)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        List<PayFlow> rows = new java.util.ArrayList<>();
        while (rs.next()) {
          rows.add(FlowRows.map(rs));
        }
        return rows;
      }
    }
  }

  static int update(Connection c, String sql, Sql.Binder binder) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      return ps.executeUpdate();
    }
  }

  static void requireOne(int rows, String what) throws SQLException {
    requireRows(rows, 1, what);
  }

  static void requireRows(int rows, int expected, String what) throws SQLException {
    if (rows != expected) {
      throw new SQLException(what + ": " + rows + " rows written, expected " + expected);
    }
  }
}
