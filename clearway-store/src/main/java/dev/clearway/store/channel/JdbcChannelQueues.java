package dev.clearway.store.channel;

import static dev.clearway.store.channel.JdbcChannelOps.age;
import static dev.clearway.store.channel.JdbcChannelOps.instant;

import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import javax.sql.DataSource;

/**
 * The channel layer's work a person may have to pick up, page by page: recovery tasks open or in
 * MANUAL, and compensations in MANUAL (an attempt charged although recorded as failed). Each row
 * names the merchant of its payment (the flow whose trade order number the attempt pays; null for
 * an order no flow owns). Read-only.
 */
public final class JdbcChannelQueues {

  private static final String TASK_COLUMNS =
      """
      SELECT t.id, t.attempt_id, a.trade_order_no, f.merchant_id, t.channel_account_id,
             ca.channel, ca.account_ref, t.status, t.strategy, t.attempt_count, t.due_at,
             t.last_error, t.policy_version, t.created_at
        FROM recovery_task t
        JOIN payment_attempt a ON a.id = t.attempt_id
        LEFT JOIN channel_account ca ON ca.id = t.channel_account_id
        LEFT JOIN pay_flow f ON f.trade_order_no = a.trade_order_no
      """;

  private final Sql sql;

  public JdbcChannelQueues(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /** A compensation a person must handle: an attempt charged although recorded as failed. */
  public record ManualCompensation(
      long attemptId,
      String tradeOrderNo,
      String merchantId,
      String refundNo,
      long amount,
      String reason,
      String lastError,
      int tries,
      Instant updatedAt) {}

  /** An open (READY, LEASED) or MANUAL recovery task. */
  public record TaskRow(
      long taskId,
      long attemptId,
      String tradeOrderNo,
      String merchantId,
      long channelAccountId,
      String channel,
      String accountRef,
      String status,
      String strategy,
      int attempts,
      Instant dueAt,
      String lastError,
      String policyVersion,
      Instant createdAt,
      long ageSeconds) {}

  /** Where a page of tasks starts: after the task due at {@code dueAt} with this id. */
  public record TaskKey(Instant dueAt, long taskId) {}

  /**
   * Open (READY, LEASED) and MANUAL recovery tasks, the one due longest ago first (then by id): at
   * most {@code limit} after {@code after} (null for the first page), through {@code
   * idx_recovery_task_ops (due_at, id)}. Ages count from creation against {@code now}.
   */
  public List<TaskRow> tasks(TaskKey after, int limit, Instant now) {
    requirePositive(limit);
    if (after == null) {
      return sql.query(
          TASK_COLUMNS
              + """
               WHERE t.status IN ('READY', 'LEASED', 'MANUAL')
               ORDER BY t.due_at, t.id
               LIMIT ?
              """,
          ps -> ps.setInt(1, limit),
          rs -> task(rs, now));
    }
    return sql.query(
        TASK_COLUMNS
            + """
             WHERE t.status IN ('READY', 'LEASED', 'MANUAL') AND (t.due_at, t.id) > (?, ?)
             ORDER BY t.due_at, t.id
             LIMIT ?
            """,
        ps -> {
          ps.setObject(1, Sql.ts(after.dueAt()));
          ps.setLong(2, after.taskId());
          ps.setInt(3, limit);
        },
        rs -> task(rs, now));
  }

  /**
   * MANUAL compensations (two charges: needs a person), newest attempt first: at most {@code limit}
   * with an attempt id below {@code beforeAttemptId} ({@link Long#MAX_VALUE} for the first page),
   * through {@code idx_compensation_manual}.
   */
  public List<ManualCompensation> manualCompensations(long beforeAttemptId, int limit) {
    requirePositive(limit);
    return sql.query(
        """
        SELECT c.attempt_id, c.trade_order_no, f.merchant_id, c.refund_no, c.amount, c.reason,
               c.last_error, c.tries, c.updated_at
          FROM attempt_compensation c
          LEFT JOIN pay_flow f ON f.trade_order_no = c.trade_order_no
         WHERE c.status = 'MANUAL' AND c.attempt_id < ?
         ORDER BY c.attempt_id DESC
         LIMIT ?
        """,
        ps -> {
          ps.setLong(1, beforeAttemptId);
          ps.setInt(2, limit);
        },
        rs ->
            new ManualCompensation(
                rs.getLong("attempt_id"),
                rs.getString("trade_order_no"),
                rs.getString("merchant_id"),
                rs.getString("refund_no"),
                rs.getLong("amount"),
                rs.getString("reason"),
                rs.getString("last_error"),
                rs.getInt("tries"),
                instant(rs, "updated_at")));
  }

  private static TaskRow task(ResultSet rs, Instant now) throws SQLException {
    Instant created = instant(rs, "created_at");
    return new TaskRow(
        rs.getLong("id"),
        rs.getLong("attempt_id"),
        rs.getString("trade_order_no"),
        rs.getString("merchant_id"),
        rs.getLong("channel_account_id"),
        rs.getString("channel"),
        rs.getString("account_ref"),
        rs.getString("status"),
        rs.getString("strategy"),
        rs.getInt("attempt_count"),
        instant(rs, "due_at"),
        rs.getString("last_error"),
        rs.getString("policy_version"),
        created,
        age(created, now));
  }

  static void requirePositive(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
  }
}
