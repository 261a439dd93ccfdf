package dev.clearway.store.refund;

import static dev.clearway.store.Sql.ts;
import static dev.clearway.store.refund.RefundRows.COLUMNS;

import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The MySQL family (MariaDB 10.11, MySQL 8): no {@code RETURNING} on UPDATE, no data-modifying
 * CTEs. The insert reads its row back by the generated id; the transition is the fenced UPDATE, a
 * read of the row it wrote (the UPDATE holds its lock), the history row and the outbox event, in
 * one transaction: all of them or none.
 */
final class MysqlRefundStatements implements RefundWrites {

  private static final String TRANSITION =
      """
      UPDATE refund_order
         SET status = ?, version = version + 1, retry_count = 0, next_retry_time = ?,
             lease_owner = ?, last_error_code = ?,
             channel_request_id = COALESCE(?, channel_request_id), updated_at = ?
       WHERE id = ? AND status = ? AND version = ? AND lease_owner = ?
      """;

  private static final String HISTORY =
      """
      INSERT INTO refund_order_history (refund_id, flow_id, refund_no, from_status, to_status,
             version, trigger_source, request_id, result_class, error_code, elapsed_ms,
             created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """;

  /** The outbox event, its payload built by the database from the row just written. */
  private static final String EVENT =
      """
      INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                created_at)
      SELECT CONCAT('refund-', id, '-v', version), ?, flow_id, merchant_id,
             JSON_OBJECT('refundId', id, 'flowId', flow_id, 'merchantId', merchant_id,
                         'refundNo', refund_no, 'tradeOrderNo', trade_order_no,
                         'amount', amount, 'currency', currency, 'status', status), ?
        FROM refund_order
       WHERE id = ?
      """;

  /**
   * The outbox event from the values of the row just read: a sharding driver refuses {@code INSERT
   * INTO outbox_event … SELECT … FROM refund_order} (two tables that are not bound).
   */
  private static final String EVENT_VALUES =
      """
      INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                created_at)
      VALUES (CONCAT('refund-', ?, '-v', ?), ?, ?, ?,
              JSON_OBJECT('refundId', ?, 'flowId', ?, 'merchantId', ?, 'refundNo', ?,
                          'tradeOrderNo', ?, 'amount', ?, 'currency', ?, 'status', ?), ?)
      """;

  /** Whether the statements pass a sharding driver. */
  private final boolean sharded;

  MysqlRefundStatements(boolean sharded) {
    this.sharded = sharded;
  }

  @Override
  public RefundOrder insert(Connection c, String insert, Sql.Binder binder) throws SQLException {
    long id;
    try (PreparedStatement ps = c.prepareStatement(insert, Statement.RETURN_GENERATED_KEYS)) {
      binder.bind(ps);
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        id = keys.getLong(1);
      }
    }
    return read(c, id).orElseThrow(() -> new SQLException("refund_order " + id + " not found"));
  }

  @Override
  public Optional<RefundOrder> transition(
      DataSource dataSource, TransitionWrite w, String errorCode, String event)
      throws SQLException {
    return Sql.inTransaction(
        dataSource,
        c -> {
          if (!update(c, w, errorCode)) {
            return Optional.<RefundOrder>empty();
          }
          RefundOrder to = read(c, w.from().id()).orElseThrow();
          history(c, w, to, errorCode);
          if (event != null) {
            if (sharded) {
              eventFromValues(c, to, event, w);
            } else {
              event(c, to, event, w);
            }
          }
          return Optional.of(to);
        });
  }

  private static boolean update(Connection c, TransitionWrite w, String errorCode)
      throws SQLException {
    RefundOrder from = w.from();
    try (PreparedStatement ps = c.prepareStatement(TRANSITION)) {
      ps.setString(1, w.to().name());
      ps.setObject(2, ts(w.nextRetryTime()));
      ps.setString(3, w.leaseToken());
      ps.setString(4, errorCode);
      ps.setString(5, w.note().requestId());
      ps.setObject(6, ts(w.now()));
      ps.setLong(7, from.id());
      ps.setString(8, from.status().name());
      ps.setLong(9, from.version());
      ps.setString(10, w.holder());
      return ps.executeUpdate() == 1;
    }
  }

  private static void history(Connection c, TransitionWrite w, RefundOrder to, String errorCode)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(HISTORY)) {
      ps.setLong(1, to.id());
      ps.setLong(2, to.flowId());
      ps.setString(3, to.refundNo());
      ps.setString(4, w.from().status().name());
      ps.setString(5, to.status().name());
      ps.setLong(6, to.version());
      ps.setString(7, w.note().trigger().name());
      ps.setString(8, w.note().requestId());
      ps.setString(9, w.note().resultClass());
      ps.setString(10, errorCode);
      ps.setLong(11, w.note().elapsedMillis());
      ps.setObject(12, ts(w.now()));
      requireOne(ps.executeUpdate(), "refund history");
    }
  }

  private static void event(Connection c, RefundOrder to, String event, TransitionWrite w)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(EVENT)) {
      ps.setString(1, event);
      ps.setObject(2, ts(w.now()));
      ps.setLong(3, to.id());
      requireOne(ps.executeUpdate(), "refund event");
    }
  }

  private static void eventFromValues(Connection c, RefundOrder to, String event, TransitionWrite w)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(EVENT_VALUES)) {
      int i = 1;
      ps.setLong(i++, to.id());
      ps.setLong(i++, to.version());
      ps.setString(i++, event);
      ps.setLong(i++, to.flowId());
      ps.setString(i++, to.merchantId());
      ps.setLong(i++, to.id());
      ps.setLong(i++, to.flowId());
      ps.setString(i++, to.merchantId());
      ps.setString(i++, to.refundNo());
      ps.setString(i++, to.tradeOrderNo());
      ps.setLong(i++, to.amount());
      ps.setString(i++, to.currency());
      ps.setString(i++, to.status().name());
      ps.setObject(i, ts(w.now()));
      requireOne(ps.executeUpdate(), "refund event");
    }
  }

  private static Optional<RefundOrder> read(Connection c, long id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT " + COLUMNS + " FROM refund_order WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(RefundRows.map(rs)) : Optional.empty();
      }
    }
  }

  private static void requireOne(int count, String what) throws SQLException {
    if (count != 1) {
      throw new SQLException(what + ": wrote " + count + " rows, expected 1");
    }
  }
}
