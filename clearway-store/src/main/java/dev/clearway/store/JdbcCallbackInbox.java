package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.store.latecharge.JdbcLateChargeStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The durable inbox of verified callbacks, deduplicated by (channel, event id), and the late-charge
 * suspicions they raise.
 */
public final class JdbcCallbackInbox {
  private final DataSource dataSource;
  private final SqlDialect dialect;

  /** An inbox on PostgreSQL. */
  public JdbcCallbackInbox(DataSource dataSource) {
    this(dataSource, new PostgresDialect());
  }

  public JdbcCallbackInbox(DataSource dataSource, SqlDialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
  }

  /** One verified event as stored. {@code flowId} is null for an order this engine never made. */
  public record Event(
      String channel,
      String eventId,
      String type,
      String tradeOrderNo,
      String refundOrderNo,
      Long flowId,
      String outcome,
      String payloadSha256,
      Instant receivedAt) {}

  /**
   * Stores the event; false when its id was already stored (a replay). In the same transaction, an
   * event about a flow that ended without payment (PAY_FAIL, CLOSED) records a late-charge
   * suspicion for it, unless the flow has one already: the event and the check commit together, so
   * a crash after the acknowledgement cannot lose the question "was this order charged after all?".
   * Replays record it too (the flow may have ended since the first delivery); the check is one per
   * flow.
   */
  public boolean store(Event e) {
    // Race: the same event delivered twice at once; the primary key lets one insert through.
    try {
      return Sql.inTransaction(
          dataSource,
          c -> {
            boolean fresh = insert(c, e);
            if (e.flowId() != null) {
              JdbcLateChargeStore.suspect(
                  c, dialect, e.flowId(), SuspicionSource.CALLBACK, e.receivedAt());
            }
            return fresh;
          });
    } catch (SQLException ex) {
      throw new StoreException("store callback", ex);
    }
  }

  private boolean insert(Connection c, Event e) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            dialect.insertIfAbsent(
                """
            INSERT INTO callback_inbox (channel, event_id, event_type, trade_order_no,
                   refund_order_no, flow_id, outcome, payload_sha256, received_at, merchant_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
                "channel, event_id"))) {
      ps.setString(1, e.channel());
      ps.setString(2, e.eventId());
      ps.setString(3, e.type());
      ps.setString(4, e.tradeOrderNo());
      ps.setString(5, e.refundOrderNo());
      ps.setObject(6, e.flowId());
      ps.setString(7, e.outcome());
      ps.setString(8, e.payloadSha256());
      ps.setObject(9, ts(e.receivedAt()));
      // What the callback wakes belongs to the flow's merchant (none for an unknown order).
      ps.setString(10, e.flowId() == null ? null : merchantOf(c, e.flowId()));
      return dialect.executeIfAbsent(ps);
    }
  }

  /**
   * The merchant of a flow, read by a statement of its own, routed by the flow id on a sharded
   * database (a subquery into the sharded facts inside the single callback_inbox's INSERT is not
   * rewritten there); null for a flow that does not exist.
   */
  private static String merchantOf(Connection c, long flowId) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT merchant_id FROM pay_flow_fact WHERE id = ?")) {
      ps.setLong(1, flowId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }
}
