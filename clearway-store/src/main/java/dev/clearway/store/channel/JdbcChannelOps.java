package dev.clearway.store.channel;

import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Read-only queries of the ops console's "Channels" panel (issue 5, seed 001 section 8): what the
 * channel layer is doing right now, per channel account. Nothing here writes; no raw PSP bodies,
 * hashes or card data leave the database.
 *
 * <p>"The last hour" is {@code [now - 1h, now]} for the {@code now} the caller passes; ages are in
 * whole seconds against the same {@code now}. A recovery task is open while READY or LEASED; its
 * age counts from its creation (as the {@code clearway.channel.recovery.oldest.age} gauge does).
 */
public final class JdbcChannelOps {
  /** The window of the per-account figures. */
  public static final Duration WINDOW = Duration.ofHours(1);

  private static final List<String> ATTEMPT_STATUSES =
      List.of("CREATED", "PENDING", "UNKNOWN", "SUCCEEDED", "FAILED");
  private static final List<String> COMPENSATION_STATUSES =
      List.of("PENDING", "REFUNDED", "MANUAL");

  private final Sql sql;

  public JdbcChannelOps(DataSource dataSource) {
    this.sql = new Sql(dataSource);
  }

  /**
   * One channel account's figures.
   *
   * @param attemptsByStatus attempts created in the last hour, every status present (0 if none)
   * @param answers provider evidence observed in the last hour on this account's attempts
   * @param unknownAnswers of which certainty UNKNOWN
   * @param unknownShare {@code unknownAnswers / answers}, null without answers
   * @param oldestOpenTaskAgeSeconds age of the oldest open recovery task, null without one
   */
  public record AccountFigures(
      long id,
      String channel,
      String accountRef,
      String failureDomain,
      boolean enabled,
      Map<String, Long> attemptsByStatus,
      long answers,
      long unknownAnswers,
      Double unknownShare,
      long openTasks,
      Long oldestOpenTaskAgeSeconds,
      long manualTasks) {}

  /** Figures over all accounts. Failovers and business retries are attempts of the last hour. */
  public record Totals(
      long attempts,
      long failovers,
      long businessRetries,
      long openTasks,
      Long oldestOpenTaskAgeSeconds,
      long manualTasks) {}

  /** A compensation a person must handle: an attempt charged although recorded as failed. */
  public record ManualCompensation(
      long attemptId,
      String tradeOrderNo,
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

  /** One row of provider evidence, without its raw hash or provider object id. */
  public record EvidenceRow(
      long id,
      String source,
      String operation,
      String certainty,
      String providerStatus,
      String errorCode,
      Instant observedAt,
      String policyVersion,
      String requestId) {}

  /** An attempt of an order with its evidence, oldest first. */
  public record AttemptTimeline(
      long attemptId,
      int seq,
      long channelAccountId,
      String channel,
      String accountRef,
      String origin,
      Long previousAttemptId,
      String status,
      String certainty,
      String errorCode,
      int replayCount,
      Instant createdAt,
      Instant updatedAt,
      String recoveryTaskStatus,
      String compensationStatus,
      List<EvidenceRow> evidence) {}

  /** A payment order (one trade order number) and its attempts across PSPs. */
  public record OrderTimeline(
      String tradeOrderNo,
      long amount,
      String currency,
      String paymentMethod,
      String status,
      String closedReason,
      Instant createdAt,
      List<AttemptTimeline> attempts) {}

  /** Every channel account, by id, with its figures of the last hour and its recovery backlog. */
  public List<AccountFigures> accounts(Instant now) {
    return sql.query(
        """
        SELECT ca.id, ca.channel, ca.account_ref, ca.failure_domain, ca.enabled,
               a.created, a.pending, a.unknown, a.succeeded, a.failed,
               e.answers, e.unknown_answers,
               t.open_tasks, t.oldest_open, t.manual_tasks
          FROM channel_account ca
          LEFT JOIN LATERAL (
            SELECT count(*) FILTER (WHERE status = 'CREATED')   AS created,
                   count(*) FILTER (WHERE status = 'PENDING')   AS pending,
                   count(*) FILTER (WHERE status = 'UNKNOWN')   AS unknown,
                   count(*) FILTER (WHERE status = 'SUCCEEDED') AS succeeded,
                   count(*) FILTER (WHERE status = 'FAILED')    AS failed
              FROM payment_attempt
             WHERE channel_account_id = ca.id AND created_at >= ?
          ) a ON TRUE
          LEFT JOIN LATERAL (
            SELECT count(*) AS answers,
                   count(*) FILTER (WHERE ev.certainty = 'UNKNOWN') AS unknown_answers
              FROM provider_evidence ev
              JOIN payment_attempt pa ON pa.id = ev.attempt_id
             WHERE pa.channel_account_id = ca.id AND ev.observed_at >= ?
          ) e ON TRUE
          LEFT JOIN LATERAL (
            SELECT count(*) FILTER (WHERE status IN ('READY', 'LEASED')) AS open_tasks,
                   min(created_at) FILTER (WHERE status IN ('READY', 'LEASED')) AS oldest_open,
                   count(*) FILTER (WHERE status = 'MANUAL') AS manual_tasks
              FROM recovery_task
             WHERE channel_account_id = ca.id
          ) t ON TRUE
         ORDER BY ca.id
        """,
        ps -> {
          ps.setObject(1, Sql.ts(now.minus(WINDOW)));
          ps.setObject(2, Sql.ts(now.minus(WINDOW)));
        },
        rs -> {
          Map<String, Long> byStatus = new LinkedHashMap<>();
          for (String status : ATTEMPT_STATUSES) {
            byStatus.put(status, rs.getLong(status.toLowerCase(java.util.Locale.ROOT)));
          }
          long answers = rs.getLong("answers");
          long unknown = rs.getLong("unknown_answers");
          return new AccountFigures(
              rs.getLong("id"),
              rs.getString("channel"),
              rs.getString("account_ref"),
              rs.getString("failure_domain"),
              rs.getBoolean("enabled"),
              byStatus,
              answers,
              unknown,
              answers == 0 ? null : (double) unknown / answers,
              rs.getLong("open_tasks"),
              age(instant(rs, "oldest_open"), now),
              rs.getLong("manual_tasks"));
        });
  }

  /** Figures over all accounts (a task whose account row is missing still counts here). */
  public Totals totals(Instant now) {
    return sql.query(
            """
            SELECT count(*) AS attempts,
                   count(*) FILTER (WHERE origin = 'FAILOVER') AS failovers,
                   count(*) FILTER (WHERE origin = 'BUSINESS_RETRY') AS business_retries,
                   (SELECT count(*) FROM recovery_task
                     WHERE status IN ('READY', 'LEASED')) AS open_tasks,
                   (SELECT min(created_at) FROM recovery_task
                     WHERE status IN ('READY', 'LEASED')) AS oldest_open,
                   (SELECT count(*) FROM recovery_task WHERE status = 'MANUAL') AS manual_tasks
              FROM payment_attempt
             WHERE created_at >= ?
            """,
            ps -> ps.setObject(1, Sql.ts(now.minus(WINDOW))),
            rs ->
                new Totals(
                    rs.getLong("attempts"),
                    rs.getLong("failovers"),
                    rs.getLong("business_retries"),
                    rs.getLong("open_tasks"),
                    age(instant(rs, "oldest_open"), now),
                    rs.getLong("manual_tasks")))
        .get(0);
  }

  /** Compensations by status, PENDING, REFUNDED and MANUAL always present. */
  public Map<String, Long> compensationsByStatus() {
    Map<String, Long> counts = new LinkedHashMap<>();
    COMPENSATION_STATUSES.forEach(s -> counts.put(s, 0L));
    sql.query(
            "SELECT status, count(*) AS n FROM attempt_compensation GROUP BY status",
            ps -> {},
            rs -> Map.entry(rs.getString("status"), rs.getLong("n")))
        .forEach(e -> counts.put(e.getKey(), e.getValue()));
    return counts;
  }

  /** MANUAL compensations (two charges: needs a person), oldest first. */
  public List<ManualCompensation> manualCompensations(int limit) {
    requirePositive(limit);
    return sql.query(
        """
        SELECT attempt_id, trade_order_no, refund_no, amount, reason, last_error, tries, updated_at
          FROM attempt_compensation
         WHERE status = 'MANUAL'
         ORDER BY created_at, attempt_id
         LIMIT ?
        """,
        ps -> ps.setInt(1, limit),
        rs ->
            new ManualCompensation(
                rs.getLong("attempt_id"),
                rs.getString("trade_order_no"),
                rs.getString("refund_no"),
                rs.getLong("amount"),
                rs.getString("reason"),
                rs.getString("last_error"),
                rs.getInt("tries"),
                instant(rs, "updated_at")));
  }

  /** The oldest open (READY, LEASED) or MANUAL recovery tasks, oldest first, at most limit. */
  public List<TaskRow> oldestTasks(int limit, Instant now) {
    requirePositive(limit);
    return sql.query(
        """
        SELECT t.id, t.attempt_id, a.trade_order_no, t.channel_account_id, ca.channel,
               ca.account_ref, t.status, t.strategy, t.attempt_count, t.due_at, t.last_error,
               t.policy_version, t.created_at
          FROM recovery_task t
          JOIN payment_attempt a ON a.id = t.attempt_id
          LEFT JOIN channel_account ca ON ca.id = t.channel_account_id
         WHERE t.status IN ('READY', 'LEASED', 'MANUAL')
         ORDER BY t.created_at, t.id
         LIMIT ?
        """,
        ps -> ps.setInt(1, limit),
        rs -> {
          Instant created = instant(rs, "created_at");
          return new TaskRow(
              rs.getLong("id"),
              rs.getLong("attempt_id"),
              rs.getString("trade_order_no"),
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
        });
  }

  /**
   * A payment order with its attempts (by seq) and each attempt's evidence (by id); empty when no
   * payment order has that number.
   */
  public Optional<OrderTimeline> order(String tradeOrderNo) {
    List<OrderTimeline> orders =
        sql.query(
            """
            SELECT trade_order_no, amount, currency, payment_method, status, closed_reason,
                   created_at
              FROM payment_order
             WHERE trade_order_no = ?
            """,
            ps -> ps.setString(1, tradeOrderNo),
            rs ->
                new OrderTimeline(
                    rs.getString("trade_order_no"),
                    rs.getLong("amount"),
                    rs.getString("currency"),
                    rs.getString("payment_method"),
                    rs.getString("status"),
                    rs.getString("closed_reason"),
                    instant(rs, "created_at"),
                    List.of()));
    if (orders.isEmpty()) {
      return Optional.empty();
    }
    Map<Long, List<EvidenceRow>> evidence = new LinkedHashMap<>();
    sql.query(
            """
            SELECT e.attempt_id, e.id, e.source, e.operation, e.certainty, e.provider_status,
                   e.error_code, e.observed_at, e.policy_version, e.request_id
              FROM provider_evidence e
              JOIN payment_attempt a ON a.id = e.attempt_id
             WHERE a.trade_order_no = ?
             ORDER BY e.attempt_id, e.id
            """,
            ps -> ps.setString(1, tradeOrderNo),
            rs ->
                Map.entry(
                    rs.getLong("attempt_id"),
                    new EvidenceRow(
                        rs.getLong("id"),
                        rs.getString("source"),
                        rs.getString("operation"),
                        rs.getString("certainty"),
                        rs.getString("provider_status"),
                        rs.getString("error_code"),
                        instant(rs, "observed_at"),
                        rs.getString("policy_version"),
                        rs.getString("request_id"))))
        .forEach(
            e -> evidence.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
    List<AttemptTimeline> attempts =
        sql.query(
            """
            SELECT a.id, a.seq, a.channel_account_id, ca.channel, ca.account_ref, a.origin,
                   a.previous_attempt_id, a.status, a.result_certainty, a.error_code,
                   a.replay_count, a.created_at, a.updated_at,
                   t.status AS task_status, c.status AS compensation_status
              FROM payment_attempt a
              LEFT JOIN channel_account ca ON ca.id = a.channel_account_id
              LEFT JOIN recovery_task t ON t.attempt_id = a.id
              LEFT JOIN attempt_compensation c ON c.attempt_id = a.id
             WHERE a.trade_order_no = ?
             ORDER BY a.seq
            """,
            ps -> ps.setString(1, tradeOrderNo),
            rs -> {
              long id = rs.getLong("id");
              long previous = rs.getLong("previous_attempt_id");
              Long previousId = rs.wasNull() ? null : previous;
              return new AttemptTimeline(
                  id,
                  rs.getInt("seq"),
                  rs.getLong("channel_account_id"),
                  rs.getString("channel"),
                  rs.getString("account_ref"),
                  rs.getString("origin"),
                  previousId,
                  rs.getString("status"),
                  rs.getString("result_certainty"),
                  rs.getString("error_code"),
                  rs.getInt("replay_count"),
                  instant(rs, "created_at"),
                  instant(rs, "updated_at"),
                  rs.getString("task_status"),
                  rs.getString("compensation_status"),
                  List.copyOf(evidence.getOrDefault(id, List.of())));
            });
    OrderTimeline o = orders.get(0);
    return Optional.of(
        new OrderTimeline(
            o.tradeOrderNo(),
            o.amount(),
            o.currency(),
            o.paymentMethod(),
            o.status(),
            o.closedReason(),
            o.createdAt(),
            attempts));
  }

  private static void requirePositive(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be positive");
    }
  }

  /** Whole seconds from {@code since} to {@code now}, never negative; null without a start. */
  private static Long age(Instant since, Instant now) {
    return since == null ? null : Math.max(0, Duration.between(since, now).toSeconds());
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
