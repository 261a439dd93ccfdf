package dev.clearway.store.channel;

import static dev.clearway.store.channel.JdbcChannelOps.age;
import static dev.clearway.store.channel.JdbcChannelOps.instant;

import dev.clearway.store.FlowMerchants;
import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
      SELECT t.id, t.attempt_id, a.trade_order_no, t.channel_account_id, t.status, t.strategy,
             t.attempt_count, t.due_at, t.last_error, t.policy_version, t.created_at
        FROM recovery_task t
        JOIN payment_attempt a ON a.id = t.attempt_id
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
    return withOwners(page(after, limit, now));
  }

  private List<TaskRow> page(TaskKey after, int limit, Instant now) {
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
    List<ManualCompensation> page =
        sql.query(
            """
        SELECT attempt_id, trade_order_no, refund_no, amount, reason, last_error, tries,
               updated_at
          FROM attempt_compensation
         WHERE status = 'MANUAL' AND attempt_id < ?
         ORDER BY attempt_id DESC
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
                    null,
                    rs.getString("refund_no"),
                    rs.getLong("amount"),
                    rs.getString("reason"),
                    rs.getString("last_error"),
                    rs.getInt("tries"),
                    instant(rs, "updated_at")));
    Map<String, String> owners =
        FlowMerchants.ofOrders(sql, page.stream().map(ManualCompensation::tradeOrderNo).toList());
    return page.stream()
        .map(
            m ->
                new ManualCompensation(
                    m.attemptId(),
                    m.tradeOrderNo(),
                    owners.get(m.tradeOrderNo()),
                    m.refundNo(),
                    m.amount(),
                    m.reason(),
                    m.lastError(),
                    m.tries(),
                    m.updatedAt()))
        .toList();
  }

  /**
   * The page's tasks with their merchant (from the flow's facts, by order number) and their account
   * (from channel_account, by id): each read by one statement for the page. A sharding driver
   * cannot route a join of the per-payment rows with the flow's facts (not bound) or with the
   * accounts (a single table on the first database), so the same statements run everywhere.
   */
  private List<TaskRow> withOwners(List<TaskRow> page) {
    if (page.isEmpty()) {
      return page;
    }
    Map<String, String> owners =
        FlowMerchants.ofOrders(sql, page.stream().map(TaskRow::tradeOrderNo).toList());
    List<Long> accountIds = page.stream().map(TaskRow::channelAccountId).distinct().toList();
    Map<Long, String[]> accounts = new HashMap<>();
    sql.query(
        "SELECT id, channel, account_ref FROM channel_account WHERE id IN ("
            + String.join(", ", Collections.nCopies(accountIds.size(), "?"))
            + ")",
        ps -> {
          for (int i = 0; i < accountIds.size(); i++) {
            ps.setLong(i + 1, accountIds.get(i));
          }
        },
        rs -> accounts.put(rs.getLong(1), new String[] {rs.getString(2), rs.getString(3)}));
    return page.stream()
        .map(
            t -> {
              String[] account = accounts.getOrDefault(t.channelAccountId(), new String[2]);
              return new TaskRow(
                  t.taskId(),
                  t.attemptId(),
                  t.tradeOrderNo(),
                  owners.get(t.tradeOrderNo()),
                  t.channelAccountId(),
                  account[0],
                  account[1],
                  t.status(),
                  t.strategy(),
                  t.attempts(),
                  t.dueAt(),
                  t.lastError(),
                  t.policyVersion(),
                  t.createdAt(),
                  t.ageSeconds());
            })
        .toList();
  }

  private static TaskRow task(ResultSet rs, Instant now) throws SQLException {
    Instant created = instant(rs, "created_at");
    return new TaskRow(
        rs.getLong("id"),
        rs.getLong("attempt_id"),
        rs.getString("trade_order_no"),
        null,
        rs.getLong("channel_account_id"),
        null,
        null,
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
