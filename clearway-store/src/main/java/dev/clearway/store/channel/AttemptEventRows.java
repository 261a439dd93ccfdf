package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a status change of an attempt leaves behind, written in the recording transaction: a {@code
 * payment_attempt_history} row, and the {@code outbox_event} when the attempt became final.
 */
final class AttemptEventRows {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private AttemptEventRows() {}

  static void history(
      Connection c,
      Attempt from,
      AttemptStatus to,
      ResultCertainty certainty,
      ProviderEvidence evidence,
      long evidenceId,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO payment_attempt_history
              (attempt_id, version, from_status, to_status, certainty, source, evidence_id, at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)) {
      ps.setLong(1, from.id());
      ps.setLong(2, from.version() + 1);
      ps.setString(3, from.status().name());
      ps.setString(4, to.name());
      ps.setString(5, certainty.name());
      ps.setString(6, evidence.source().name());
      ps.setLong(7, evidenceId);
      ps.setObject(8, Sql.ts(now));
      ps.executeUpdate();
    }
  }

  /**
   * The event of an attempt that became final; {@code sharded}: through a sharding driver, which
   * does not rewrite a subquery inside VALUES, so the merchant is read by a statement of its own.
   */
  static void outbox(Connection c, Attempt from, AttemptStatus to, Instant now, boolean sharded)
      throws SQLException {
    String type =
        to == AttemptStatus.SUCCEEDED ? "PaymentAttemptSucceeded" : "PaymentAttemptFailed";
    long version = from.version() + 1;
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("attemptId", from.id());
    payload.put("tradeOrderNo", from.tradeOrderNo());
    payload.put("channelAccountId", from.channelAccountId());
    payload.put("status", to.name());
    payload.put("version", version);
    String eventId = "attempt-" + from.id() + "-v" + version;
    if (sharded) {
      insertOutboxValues(c, eventId, type, from.id(), from.tradeOrderNo(), json(payload), now);
    } else {
      insertOutbox(c, eventId, type, from, json(payload), now);
    }
  }

  /** An event's payload: the fields in their order, written by Jackson. */
  static String json(Map<String, Object> fields) {
    return JSON.writeValueAsString(fields);
  }

  /** An outbox event about an attempt, its merchant the flow's that owns the trade order. */
  static void insertOutbox(
      Connection c, String eventId, String type, Attempt about, String payload, Instant now)
      throws SQLException {
    insertOutbox(c, eventId, type, about.id(), about.tradeOrderNo(), payload, now);
  }

  static void insertOutbox(
      Connection c,
      String eventId,
      String type,
      long attemptId,
      String tradeOrderNo,
      String payload,
      Instant now)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                      created_at)
            VALUES (?, ?, ?, (SELECT merchant_id FROM pay_flow WHERE trade_order_no = ?), ?, ?)
            """)) {
      ps.setString(1, eventId);
      ps.setString(2, type);
      ps.setLong(3, attemptId);
      ps.setString(4, tradeOrderNo);
      ps.setString(5, payload);
      ps.setObject(6, Sql.ts(now));
      ps.executeUpdate();
    }
  }

  /**
   * {@link #insertOutbox} in two statements: the merchant of the flow that owns the trade order
   * (none: NULL, as the subquery gives), then the event; both reach the trade order's shard.
   */
  static void insertOutboxValues(
      Connection c,
      String eventId,
      String type,
      long attemptId,
      String tradeOrderNo,
      String payload,
      Instant now)
      throws SQLException {
    String merchant = null;
    try (PreparedStatement ps =
        c.prepareStatement("SELECT merchant_id FROM pay_flow_fact WHERE trade_order_no = ?")) {
      ps.setString(1, tradeOrderNo);
      try (java.sql.ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          merchant = rs.getString(1);
        }
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO outbox_event (event_id, event_type, aggregate_id, merchant_id, payload,
                                      created_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """)) {
      ps.setString(1, eventId);
      ps.setString(2, type);
      ps.setLong(3, attemptId);
      ps.setString(4, merchant);
      ps.setString(5, payload);
      ps.setObject(6, Sql.ts(now));
      ps.executeUpdate();
    }
  }
}
