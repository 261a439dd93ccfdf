package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.review.TargetFacts;
import dev.clearway.store.review.OpsCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * A refund order moved by a person's command, through the same guard trigger as the engine's moves:
 * a retry keeps ABNORMAL and makes it due now (the advancer queries it and re-sends the same number
 * if the wallet has no record of it); a confirmation or a close ends it, with its domain event.
 * Every move bumps the version and drops the lease, so a worker that read it before can write
 * nothing. Its history row carries the command's request id ({@code cmd-<id>}), by which a later
 * approval finds the effect. Every statement names the refund's id or its flow's id, so a sharding
 * driver routes each to the payment's shard.
 */
final class OpsRefundMoves {

  private OpsRefundMoves() {}

  static Optional<OpsTargets.Locked> lock(Connection c, long id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT status, version FROM refund_order WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        RefundStatus status = RefundStatus.valueOf(rs.getString("status"));
        return Optional.of(
            new OpsTargets.Locked(new TargetFacts.Refund(status), rs.getLong("version"), status));
      }
    }
  }

  /**
   * The status a command's move set, read from the refund's history row tagged {@code tag}: the
   * refund's flow id first (by the refund's id), then the history by flow id, refund id and tag, so
   * both reads route to the payment's shard.
   */
  static Optional<String> applied(Connection c, long refundId, String tag) throws SQLException {
    Optional<String> flowId =
        OpsTargets.first(c, "SELECT flow_id FROM refund_order WHERE id = ?", refundId);
    if (flowId.isEmpty()) {
      return Optional.empty();
    }
    return OpsTargets.first(
        c,
        "SELECT to_status FROM refund_order_history"
            + " WHERE flow_id = ? AND refund_id = ? AND request_id = ?",
        Long.parseLong(flowId.get()),
        refundId,
        tag);
  }

  /** The move in one statement (data-modifying CTEs: PostgreSQL); false if the row moved. */
  static boolean move(
      Connection c, OpsCommand cmd, OpsTargets.Locked target, RefundStatus to, Instant now)
      throws SQLException {
    RefundStatus from = (RefundStatus) target.row();
    String event = event(to);
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            WITH moved AS (
              UPDATE refund_order
                 SET status = ?, version = version + 1, retry_count = 0, next_retry_time = ?,
                     lease_owner = NULL, last_error_code = ?, updated_at = ?
               WHERE id = ? AND status = ? AND version = ?
              RETURNING *
            ), hist AS (
              INSERT INTO refund_order_history (refund_id, flow_id, refund_no, from_status,
                     to_status, version, trigger_source, request_id, result_class, error_code,
                     elapsed_ms, created_at)
              SELECT id, flow_id, refund_no, ?, status, version, 'MANUAL', ?, 'MANUAL_COMMAND',
                     ?, 0, ? FROM moved
            ), evt AS (
              INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                        created_at)
              SELECT 'refund-' || id || '-v' || version, ?, flow_id, merchant_id,
                     json_build_object('refundId', id, 'flowId', flow_id,
                                       'merchantId', merchant_id, 'refundNo', refund_no,
                                       'tradeOrderNo', trade_order_no, 'amount', amount,
                                       'currency', currency, 'status', status)::text, ?
                FROM moved
               WHERE ?::text IS NOT NULL
            )
            SELECT count(*) FROM moved
            """)) {
      int i = 0;
      ps.setString(++i, to.name());
      ps.setObject(++i, ts(now));
      ps.setString(++i, cmd.kind().name());
      ps.setObject(++i, ts(now));
      ps.setLong(++i, cmd.targetId());
      ps.setString(++i, from.name());
      ps.setLong(++i, target.version());
      ps.setString(++i, from.name());
      ps.setString(++i, OpsTargets.tag(cmd));
      ps.setString(++i, cmd.kind().name());
      ps.setObject(++i, ts(now));
      ps.setString(++i, event);
      ps.setObject(++i, ts(now));
      ps.setString(++i, event);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) == 1;
      }
    }
  }

  /** The domain event of a refund's manual move, or null. */
  private static String event(RefundStatus to) {
    return switch (to) {
      case SUCCESS -> "OrderRefundSucceeded";
      case FAIL -> "OrderRefundFailed";
      case PENDING, PROCESSING, ABNORMAL, CLOSED -> null;
    };
  }

  /** The refund as its move left it: what its history row and event repeat. */
  private record Moved(
      long flowId,
      String refundNo,
      long version,
      String merchantId,
      String tradeOrderNo,
      long amount,
      String currency) {}

  /**
   * {@link #move} on the MySQL family: the same compare-and-set, then the row read back under its
   * lock, then the history row and the outbox event inserted from its values, in the caller's
   * transaction. A sharding driver refuses {@code INSERT … SELECT} from {@code refund_order} into
   * the history or the outbox (tables that are not bound), so every MySQL database takes values.
   */
  static boolean moveInSteps(
      Connection c, OpsCommand cmd, OpsTargets.Locked target, RefundStatus to, Instant now)
      throws SQLException {
    RefundStatus from = (RefundStatus) target.row();
    long id = cmd.targetId();
    int moved =
        update(
            c,
            """
            UPDATE refund_order
               SET status = ?, version = version + 1, retry_count = 0, next_retry_time = ?,
                   lease_owner = NULL, last_error_code = ?, updated_at = ?
             WHERE id = ? AND status = ? AND version = ?
            """,
            to.name(),
            ts(now),
            cmd.kind().name(),
            ts(now),
            id,
            from.name(),
            target.version());
    if (moved != 1) {
      return false;
    }
    Moved row = read(c, id);
    requireOne(
        update(
            c,
            """
            INSERT INTO refund_order_history (refund_id, flow_id, refund_no, from_status,
                   to_status, version, trigger_source, request_id, result_class, error_code,
                   elapsed_ms, created_at)
            VALUES (?, ?, ?, ?, ?, ?, 'MANUAL', ?, 'MANUAL_COMMAND', ?, 0, ?)
            """,
            id,
            row.flowId(),
            row.refundNo(),
            from.name(),
            to.name(),
            row.version(),
            OpsTargets.tag(cmd),
            cmd.kind().name(),
            ts(now)),
        "history of refund " + id);
    String event = event(to);
    if (event != null) {
      requireOne(insertEvent(c, id, row, to, event, now), "event of refund " + id);
    }
    return true;
  }

  private static Moved read(Connection c, long id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT flow_id, refund_no, version, merchant_id, trade_order_no, amount, currency"
                + " FROM refund_order WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("refund " + id + " vanished under its lock");
        }
        return new Moved(
            rs.getLong("flow_id"),
            rs.getString("refund_no"),
            rs.getLong("version"),
            rs.getString("merchant_id"),
            rs.getString("trade_order_no"),
            rs.getLong("amount"),
            rs.getString("currency"));
      }
    }
  }

  /** The outbox row of a refund's event, from the row as written; its update count. */
  private static int insertEvent(
      Connection c, long id, Moved row, RefundStatus to, String event, Instant now)
      throws SQLException {
    return update(
        c,
        """
        INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                  created_at)
        VALUES (CONCAT('refund-', ?, '-v', ?), ?, ?, ?,
                JSON_OBJECT('refundId', ?, 'flowId', ?, 'merchantId', ?, 'refundNo', ?,
                            'tradeOrderNo', ?, 'amount', ?, 'currency', ?, 'status', ?), ?)
        """,
        id,
        row.version(),
        event,
        row.flowId(),
        row.merchantId(),
        id,
        row.flowId(),
        row.merchantId(),
        row.refundNo(),
        row.tradeOrderNo(),
        row.amount(),
        row.currency(),
        to.name(),
        ts(now));
  }

  private static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }

  private static void requireOne(int rows, String what) throws SQLException {
    if (rows != 1) {
      throw new SQLException(what + ": " + rows + " rows written, expected 1");
    }
  }
}
