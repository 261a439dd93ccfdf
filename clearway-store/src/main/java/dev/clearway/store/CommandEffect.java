package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.DomainEvent;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.store.review.ManualCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The effect of an approved manual command on its flow, inside the approval's transaction. Every
 * command bumps the flow's version and releases its lease, with a history row, so a worker that
 * read the flow before the command can write nothing after it.
 */
final class CommandEffect {

  private CommandEffect() {}

  static void apply(
      Connection c, SqlDialect dialect, ManualCommand cmd, PayFlow flow, FlowStatus to, Instant now)
      throws SQLException {
    // Every command bumps the version and releases the lease, so a worker that read the flow
    // before the command can write nothing after it: its CAS (status, version) and its lease
    // fence both fail.
    if (to == flow.status()) {
      // RESUME: no transition; clear the review mark and make the flow due now.
      int rows =
          update(
              c,
              """
              UPDATE pay_flow_state SET review_state = 'NONE', review_reason = NULL, retry_count = 0,
                     version = version + 1, next_retry_time = ?, lease_owner = NULL,
                     updated_at = ?
               WHERE id = ? AND status = ? AND version = ?
              """,
              ts(now),
              ts(now),
              flow.id(),
              flow.status().name(),
              flow.version());
      requireOne(rows, cmd);
      appendHistory(c, cmd, flow, flow.status(), now);
      return;
    }
    // A transition through the same CAS and guard trigger as the engine's, with its history row.
    int rows =
        update(
            c,
            """
            UPDATE pay_flow_state SET status = ?, version = version + 1, review_state = 'NONE',
                   review_reason = NULL, retry_count = 0, next_retry_time = ?,
                   lease_owner = NULL, last_error_code = ?, updated_at = ?
             WHERE id = ? AND status = ? AND version = ?
            """,
            to.name(),
            ts(now),
            cmd.kind().name(),
            ts(now),
            flow.id(),
            flow.status().name(),
            flow.version());
    requireOne(rows, cmd);
    appendHistory(c, cmd, flow, to, now);
    // The domain event of the new state, in the same transaction, as for automatic transitions.
    Optional<DomainEvent> event = DomainEvent.onEntering(to);
    if (event.isPresent() && dialect.sharded()) {
      // INSERT … SELECT from the flow is refused by a sharding driver (the outbox and the facts
      // are not bound): the event is written from the row read back on the flow's shard.
      ShardedFlowWrites.insertEvent(c, ShardedFlowReads.row(c, flow.id()), event.get(), now);
    } else if (event.isPresent()) {
      update(
          c,
          "INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,"
              + " created_at) SELECT ?, ?, id, merchant_id, "
              + dialect.flowEventPayload()
              + ", ? FROM pay_flow WHERE id = ?",
          DomainEvent.eventId(flow.id(), flow.version() + 1),
          event.get().name(),
          ts(now),
          flow.id());
    }
  }

  /**
   * The history row of a command's new version: a transition, or for RESUME a row whose status
   * stays (the version moved, the state did not), so the timeline shows every version.
   */
  private static void appendHistory(
      Connection c, ManualCommand cmd, PayFlow flow, FlowStatus to, Instant now)
      throws SQLException {
    update(
        c,
        """
        INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
               refund_order_no, from_status, to_status, version, trigger_source, request_id,
               result_class, error_code, elapsed_ms, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'MANUAL_COMMAND', ?, 0, ?)
        """,
        flow.id(),
        flow.goal().bizKey(),
        flow.attemptNo(),
        flow.tradeOrderNo(),
        flow.refundOrderNo(),
        flow.status().name(),
        to.name(),
        flow.version() + 1,
        TriggerSource.MANUAL.name(),
        requestId(cmd),
        cmd.kind().name(),
        ts(now));
  }

  /**
   * Whether the flow's history holds the effect of {@code cmd} (its rows carry the request id
   * {@code cmd-<id>}): routed by the flow id to the flow's shard.
   */
  static boolean applied(Connection c, ManualCommand cmd) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT count(*) FROM pay_flow_history WHERE flow_id = ? AND request_id = ?")) {
      ps.setLong(1, cmd.flowId());
      ps.setString(2, requestId(cmd));
      try (var rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1) > 0;
      }
    }
  }

  private static String requestId(ManualCommand cmd) {
    return "cmd-" + cmd.id();
  }

  private static void requireOne(int rows, ManualCommand cmd) throws SQLException {
    // The flow row is locked FOR UPDATE in this transaction, so 0 rows cannot come from a race;
    // it would mean the pinned status or version no longer hold.
    if (rows != 1) {
      throw new SQLException("command " + cmd.id() + ": flow changed under its lock");
    }
  }

  static int update(Connection c, String sql, Object... params) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      return ps.executeUpdate();
    }
  }
}
