package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/** The durable inbox of verified callbacks, deduplicated by (channel, event id). */
public final class JdbcCallbackInbox {
  private final DataSource dataSource;

  public JdbcCallbackInbox(DataSource dataSource) {
    this.dataSource = dataSource;
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

  /** Stores the event; false when its id was already stored (a replay). */
  public boolean store(Event e) {
    // Race: the same event delivered twice at once; the primary key lets one insert through.
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                """
                INSERT INTO callback_inbox (channel, event_id, event_type, trade_order_no,
                       refund_order_no, flow_id, outcome, payload_sha256, received_at,
                       merchant_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT merchant_id FROM pay_flow WHERE id = ?))
                ON CONFLICT (channel, event_id) DO NOTHING
                """)) {
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
      ps.setObject(10, e.flowId());
      return ps.executeUpdate() == 1;
    } catch (SQLException ex) {
      throw new StoreException("store callback", ex);
    }
  }
}
