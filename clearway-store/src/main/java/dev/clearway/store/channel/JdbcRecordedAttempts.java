package dev.clearway.store.channel;

import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.RecordedAttempt;
import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import javax.sql.DataSource;

/**
 * The recorded history a policy dry run replays: payment attempts (all of them creates) with their
 * channel (from the channel account), their payment method family (from the payment order, such as
 * {@code card}), when they started, when they reached SUCCEEDED or FAILED, and how many recovery
 * calls they cost. Read-only; no amounts or customer data leave the database.
 */
public final class JdbcRecordedAttempts {

  private final Sql sql;

  public JdbcRecordedAttempts(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /**
   * Attempts created at or after {@code from}, oldest first, at most {@code limit}.
   *
   * <p>{@code resolvedAt} is the first history entry into SUCCEEDED or FAILED; a final attempt
   * without one (written final directly) falls back to its {@code updated_at}; null while the
   * attempt is live. {@code recoveryCalls} counts the evidence of recovery calls: queries (source
   * QUERY) and idempotent replays (operation REPLAY).
   *
   * @throws IllegalArgumentException if {@code limit} is not positive
   */
  public List<RecordedAttempt> since(Instant from, int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
    return sql.query(
        """
        SELECT a.id, ca.channel, o.payment_method, a.created_at,
               COALESCE(
                 (SELECT min(h.at) FROM payment_attempt_history h
                   WHERE h.attempt_id = a.id AND h.to_status IN ('SUCCEEDED', 'FAILED')),
                 CASE WHEN a.status IN ('SUCCEEDED', 'FAILED') THEN a.updated_at END
               ) AS resolved_at,
               (SELECT count(*) FROM provider_evidence e
                 WHERE e.attempt_id = a.id AND (e.source = 'QUERY' OR e.operation = 'REPLAY')
               ) AS recovery_calls
          FROM payment_attempt a
          JOIN channel_account ca ON ca.id = a.channel_account_id
          JOIN payment_order o ON o.trade_order_no = a.trade_order_no
         WHERE a.created_at >= ?
         ORDER BY a.created_at, a.id
         LIMIT ?
        """,
        ps -> {
          ps.setObject(1, Sql.ts(from));
          ps.setInt(2, limit);
        },
        JdbcRecordedAttempts::attempt);
  }

  private static RecordedAttempt attempt(ResultSet rs) throws SQLException {
    return new RecordedAttempt(
        rs.getLong("id"),
        rs.getString("channel"),
        rs.getString("payment_method"),
        Operation.CREATE,
        instant(rs, "created_at"),
        instant(rs, "resolved_at"),
        rs.getInt("recovery_calls"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
