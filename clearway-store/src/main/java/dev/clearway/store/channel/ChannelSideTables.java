package dev.clearway.store.channel;

import dev.clearway.core.channel.domain.ProviderEvidence;
import dev.clearway.core.channel.port.ChannelRefundStore.ChannelRefund;
import dev.clearway.core.channel.port.CompensationStore.Compensation;
import dev.clearway.core.channel.port.WebhookInbox.Delivery;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Evidence rows, compensations, channel refunds and the webhook inbox. */
final class ChannelSideTables {

  private static final int CODE_MAX = 64;

  private final Sql sql;

  ChannelSideTables(Sql sql) {
    this.sql = sql;
  }

  long insertEvidence(Connection c, long attemptId, Long taskId, ProviderEvidence e)
      throws SQLException {
    PspOutcome o = e.outcome();
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO provider_evidence (attempt_id, task_id, source, operation, certainty,
              provider_status, provider_object_id, error_code, request_id, raw_sha256,
              policy_version, observed_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """)) {
      ps.setLong(1, attemptId);
      ps.setObject(2, taskId);
      ps.setString(3, e.source().name());
      ps.setString(4, e.operation());
      ps.setString(5, o.certainty().name());
      ps.setString(6, Sql.truncate(o.providerStatus(), 48));
      ps.setString(7, Sql.truncate(o.providerPaymentId(), 128));
      ps.setString(8, Sql.truncate(o.errorCode(), CODE_MAX));
      ps.setString(9, Sql.truncate(o.requestId(), 128));
      ps.setString(10, o.rawHash() != null && o.rawHash().length() == 64 ? o.rawHash() : null);
      ps.setString(11, e.policyVersion());
      ps.setObject(12, Sql.ts(e.observedAt()));
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  boolean openCompensation(Compensation k, Instant now) {
    return sql.update(
            """
            INSERT INTO attempt_compensation (attempt_id, trade_order_no, refund_no, amount,
              status, reason, due_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, 'PENDING', ?, ?, ?, ?)
            ON CONFLICT (attempt_id) DO NOTHING
            """,
            ps -> {
              ps.setLong(1, k.attemptId());
              ps.setString(2, k.tradeOrderNo());
              ps.setString(3, k.refundNo());
              ps.setLong(4, k.amount());
              ps.setString(5, Sql.truncate(k.reason(), CODE_MAX));
              ps.setObject(6, Sql.ts(now));
              ps.setObject(7, Sql.ts(now));
              ps.setObject(8, Sql.ts(now));
            })
        == 1;
  }

  List<Compensation> claimCompensations(int limit, Duration lease, Instant now) {
    // SKIP LOCKED: two workers never claim the same compensation. The claim pushes due_at out to
    // the lease's end (nobody else takes it meanwhile) and bumps the version, which fences the
    // claimant's update: a worker whose claim was taken over after it expired writes nothing.
    return sql.query(
        """
        WITH due AS (
          SELECT attempt_id FROM attempt_compensation
          WHERE status = 'PENDING' AND due_at <= ?
          ORDER BY due_at LIMIT ?
          FOR UPDATE SKIP LOCKED)
        UPDATE attempt_compensation k SET due_at = ?, version = version + 1, updated_at = ?
        FROM due WHERE k.attempt_id = due.attempt_id
        RETURNING k.attempt_id, k.trade_order_no, k.refund_no, k.amount, k.status, k.reason,
          k.tries, k.version
        """,
        ps -> {
          ps.setObject(1, Sql.ts(now));
          ps.setInt(2, limit);
          ps.setObject(3, Sql.ts(now.plus(lease)));
          ps.setObject(4, Sql.ts(now));
        },
        rs ->
            new Compensation(
                rs.getLong("attempt_id"),
                rs.getString("trade_order_no"),
                rs.getString("refund_no"),
                rs.getLong("amount"),
                rs.getString("status"),
                rs.getString("reason"),
                rs.getInt("tries"),
                rs.getLong("version")));
  }

  boolean updateCompensation(Compensation k, String status, String error, Instant dueAt) {
    return sql.update(UPDATE_COMPENSATION, ps -> bindCompensation(ps, k, status, error, dueAt))
        == 1;
  }

  /** The same update inside the caller's transaction. */
  boolean updateCompensation(
      Connection c, Compensation k, String status, String error, Instant dueAt)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(UPDATE_COMPENSATION)) {
      bindCompensation(ps, k, status, error, dueAt);
      return ps.executeUpdate() == 1;
    }
  }

  private static final String UPDATE_COMPENSATION =
      """
      UPDATE attempt_compensation SET status = ?, last_error = ?, due_at = ?,
        tries = tries + 1, version = version + 1, updated_at = ?
      WHERE attempt_id = ? AND version = ? AND status = 'PENDING'
      """;

  private static void bindCompensation(
      PreparedStatement ps, Compensation k, String status, String error, Instant dueAt)
      throws SQLException {
    ps.setString(1, status);
    ps.setString(2, Sql.truncate(error, CODE_MAX));
    ps.setObject(3, Sql.ts(dueAt));
    ps.setObject(4, Sql.ts(dueAt));
    ps.setLong(5, k.attemptId());
    ps.setLong(6, k.version());
  }

  ChannelRefund channelRefund(String refundOrderNo, long attemptId, long amount, Instant now) {
    sql.update(
        """
        INSERT INTO channel_refund (refund_order_no, attempt_id, provider_refund_no, generation,
          amount, created_at, updated_at)
        VALUES (?, ?, ?, 1, ?, ?, ?)
        ON CONFLICT (refund_order_no) DO NOTHING
        """,
        ps -> {
          ps.setString(1, refundOrderNo);
          ps.setLong(2, attemptId);
          ps.setString(3, refundOrderNo);
          ps.setLong(4, amount);
          ps.setObject(5, Sql.ts(now));
          ps.setObject(6, Sql.ts(now));
        });
    return findChannelRefund(refundOrderNo).orElseThrow();
  }

  Optional<ChannelRefund> findChannelRefund(String refundOrderNo) {
    return sql
        .query(
            "SELECT * FROM channel_refund WHERE refund_order_no = ?",
            ps -> ps.setString(1, refundOrderNo),
            rs ->
                new ChannelRefund(
                    rs.getString("refund_order_no"),
                    rs.getLong("attempt_id"),
                    rs.getString("provider_refund_no"),
                    rs.getInt("generation"),
                    rs.getLong("amount")))
        .stream()
        .findFirst();
  }

  boolean nextRefundGeneration(ChannelRefund r, Instant now) {
    int next = r.generation() + 1;
    return sql.update(
            """
            UPDATE channel_refund SET generation = ?, provider_refund_no = ?, updated_at = ?
            WHERE refund_order_no = ? AND generation = ?
            """,
            ps -> {
              ps.setInt(1, next);
              ps.setString(2, r.refundOrderNo() + "-" + next);
              ps.setObject(3, Sql.ts(now));
              ps.setString(4, r.refundOrderNo());
              ps.setInt(5, r.generation());
            })
        == 1;
  }

  /** Inserts the claim, or takes over an unfinished one older than {@code staleBefore}. */
  boolean claimDelivery(Delivery d, Instant now, Instant staleBefore) {
    return sql.update(
            """
            INSERT INTO channel_webhook_inbox (channel_account_id, channel, event_id, received_at)
            VALUES (?, ?, ?, ?)
            ON CONFLICT (channel_account_id, event_id) DO UPDATE
              SET received_at = EXCLUDED.received_at
            WHERE channel_webhook_inbox.done_at IS NULL
              AND channel_webhook_inbox.received_at < ?
            """,
            ps -> {
              ps.setLong(1, d.channelAccountId());
              ps.setString(2, d.channel());
              ps.setString(3, Sql.truncate(d.eventId(), 128));
              ps.setObject(4, Sql.ts(now));
              ps.setObject(5, Sql.ts(staleBefore));
            })
        == 1;
  }

  void finishDelivery(Delivery d, Instant now) {
    sql.update(
        """
        UPDATE channel_webhook_inbox SET done_at = ?
        WHERE channel_account_id = ? AND event_id = ?
        """,
        ps -> {
          ps.setObject(1, Sql.ts(now));
          ps.setLong(2, d.channelAccountId());
          ps.setString(3, Sql.truncate(d.eventId(), 128));
        });
  }

  void releaseDelivery(Delivery d) {
    sql.update(
        """
        DELETE FROM channel_webhook_inbox
        WHERE channel_account_id = ? AND event_id = ? AND done_at IS NULL
        """,
        ps -> {
          ps.setLong(1, d.channelAccountId());
          ps.setString(2, Sql.truncate(d.eventId(), 128));
        });
  }
}
