package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.review.CompensationStatus;
import dev.clearway.core.review.TargetFacts;
import dev.clearway.core.review.TargetKind;
import dev.clearway.store.channel.ManualChannelEffects;
import dev.clearway.store.channel.ManualChannelEffects.LockedAttempt;
import dev.clearway.store.channel.ManualChannelEffects.LockedCompensation;
import dev.clearway.store.review.OpsCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The rows manual commands act on, other than flows: each one locked FOR UPDATE and read as the
 * facts its command is decided on, then moved by compare-and-set on the version read, inside the
 * approval's transaction.
 */
final class OpsTargets {

  private OpsTargets() {}

  /** A target under its lock: the facts, the version pinned, and the row itself. */
  record Locked(TargetFacts facts, long version, Object row) {}

  static Optional<Locked> lock(Connection c, TargetKind kind, long id) throws SQLException {
    return switch (kind) {
      case REFUND_ORDER -> lockRefund(c, id);
      case ATTEMPT ->
          ManualChannelEffects.lockAttempt(c, id)
              .map(
                  a ->
                      new Locked(
                          new TargetFacts.Attempt(a.attempt().status(), a.task(), a.taskError()),
                          a.attempt().version(),
                          a));
      case COMPENSATION ->
          ManualChannelEffects.lockCompensation(c, id)
              .map(k -> new Locked(new TargetFacts.Compensation(k.status()), k.version(), k));
      case FLOW -> throw new IllegalArgumentException("flows are commanded through review");
    };
  }

  /**
   * Applies an allowed command; false when the row moved under its lock (it cannot). {@code
   * inSteps}: the database has no data-modifying CTE (the MySQL family), a refund moves in several
   * statements of the caller's transaction.
   */
  static boolean apply(
      Connection c, OpsCommand cmd, Locked target, String to, Instant now, boolean inSteps)
      throws SQLException {
    return switch (cmd.targetKind()) {
      case REFUND_ORDER ->
          inSteps
              ? moveRefundInSteps(c, cmd, target, RefundStatus.valueOf(to), now)
              : moveRefund(c, cmd, target, RefundStatus.valueOf(to), now);
      case ATTEMPT -> settleAttempt(c, cmd, (LockedAttempt) target.row(), to, now);
      case COMPENSATION ->
          ManualChannelEffects.settleCompensation(
              c,
              (LockedCompensation) target.row(),
              CompensationStatus.valueOf(to),
              cmd.kind().name(),
              now);
      case FLOW -> throw new IllegalArgumentException("flows are commanded through review");
    };
  }

  /**
   * An attempt settled by a person: confirmed or kept (SUCCEEDED), confirmed failed (FAILED), or a
   * charge of another amount refunded or handed to finance (FAILED, with its compensation).
   */
  private static boolean settleAttempt(
      Connection c, OpsCommand cmd, LockedAttempt a, String to, Instant now) throws SQLException {
    String ref = "cmd-" + cmd.id();
    AttemptStatus status = AttemptStatus.valueOf(to);
    return switch (cmd.kind()) {
      case REFUND_MISMATCHED_CHARGE ->
          ManualChannelEffects.settleMismatch(
              c, a.attempt(), CompensationStatus.PENDING, cmd.amount(), cmd.evidence(), ref, now);
      case MISMATCH_TO_FINANCE ->
          ManualChannelEffects.settleMismatch(
              c, a.attempt(), CompensationStatus.FINANCE, cmd.amount(), cmd.evidence(), ref, now);
      default ->
          ManualChannelEffects.settleAttempt(c, a.attempt(), status, cmd.evidence(), ref, now);
    };
  }

  private static Optional<Locked> lockRefund(Connection c, long id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT status, version FROM refund_order WHERE id = ? FOR UPDATE")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        RefundStatus status = RefundStatus.valueOf(rs.getString("status"));
        return Optional.of(
            new Locked(new TargetFacts.Refund(status), rs.getLong("version"), status));
      }
    }
  }

  /**
   * A refund moved by a person, through the same guard trigger as the engine's moves: a retry keeps
   * ABNORMAL and makes it due now (the advancer queries it and re-sends the same number if the
   * wallet has no record of it); a confirmation or a close ends it, with its domain event. Every
   * move bumps the version and drops the lease, so a worker that read it before can write nothing.
   */
  private static boolean moveRefund(
      Connection c, OpsCommand cmd, Locked target, RefundStatus to, Instant now)
      throws SQLException {
    RefundStatus from = (RefundStatus) target.row();
    String event = refundEvent(to);
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
      ps.setString(++i, "cmd-" + cmd.id());
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
  private static String refundEvent(RefundStatus to) {
    return switch (to) {
      case SUCCESS -> "OrderRefundSucceeded";
      case FAIL -> "OrderRefundFailed";
      case PENDING, PROCESSING, ABNORMAL, CLOSED -> null;
    };
  }

  /**
   * {@link #moveRefund} on the MySQL family: the same compare-and-set, then the history row and the
   * outbox event read from the row just written (its lock is held), in the caller's transaction.
   */
  private static boolean moveRefundInSteps(
      Connection c, OpsCommand cmd, Locked target, RefundStatus to, Instant now)
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
    requireOne(
        update(
            c,
            """
            INSERT INTO refund_order_history (refund_id, flow_id, refund_no, from_status,
                   to_status, version, trigger_source, request_id, result_class, error_code,
                   elapsed_ms, created_at)
            SELECT id, flow_id, refund_no, ?, status, version, 'MANUAL', ?, 'MANUAL_COMMAND',
                   ?, 0, ? FROM refund_order WHERE id = ?
            """,
            from.name(),
            "cmd-" + cmd.id(),
            cmd.kind().name(),
            ts(now),
            id),
        "history of refund " + id);
    String event = refundEvent(to);
    if (event != null) {
      requireOne(insertRefundEvent(c, id, event, now), "event of refund " + id);
    }
    return true;
  }

  /** The outbox row of a refund's event, built from the row as written; its update count. */
  private static int insertRefundEvent(Connection c, long id, String event, Instant now)
      throws SQLException {
    return update(
        c,
        """
        INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                  created_at)
        SELECT CONCAT('refund-', id, '-v', version), ?, flow_id, merchant_id,
               JSON_OBJECT('refundId', id, 'flowId', flow_id, 'merchantId', merchant_id,
                           'refundNo', refund_no, 'tradeOrderNo', trade_order_no,
                           'amount', amount, 'currency', currency, 'status', status), ?
          FROM refund_order WHERE id = ?
        """,
        event,
        ts(now),
        id);
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
