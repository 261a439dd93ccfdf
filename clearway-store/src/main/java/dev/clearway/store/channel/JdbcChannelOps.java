package dev.clearway.store.channel;

import dev.clearway.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Read-only figures of the ops console's "Channels" panel: what the channel layer is doing right
 * now, per channel account (its lists are {@link JdbcChannelQueues} and {@link JdbcOrderTimeline}).
 * Nothing here writes; no raw PSP bodies, hashes or card data leave the database.
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

  /**
   * Each account with its attempts by status and its answers of the window (parameters: the
   * window's start twice) and its recovery backlog.
   */
  private static final String ACCOUNT_FIGURES =
      """
      SELECT ca.id, ca.channel, ca.account_ref, ca.failure_domain, ca.enabled,
             a.created, a.pending, a.unknown, a.succeeded, a.failed,
             e.answers, e.unknown_answers,
             t.open_tasks, t.oldest_open, t.manual_tasks
        FROM channel_account ca
        LEFT JOIN (
          SELECT channel_account_id,
                 SUM(CASE WHEN status = 'CREATED' THEN 1 ELSE 0 END)   AS created,
                 SUM(CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END)   AS pending,
                 SUM(CASE WHEN status = 'UNKNOWN' THEN 1 ELSE 0 END)   AS unknown,
                 SUM(CASE WHEN status = 'SUCCEEDED' THEN 1 ELSE 0 END) AS succeeded,
                 SUM(CASE WHEN status = 'FAILED' THEN 1 ELSE 0 END)    AS failed
            FROM payment_attempt
           WHERE created_at >= ?
           GROUP BY channel_account_id
        ) a ON a.channel_account_id = ca.id
        LEFT JOIN (
          SELECT pa.channel_account_id,
                 count(*) AS answers,
                 SUM(CASE WHEN ev.certainty = 'UNKNOWN' THEN 1 ELSE 0 END) AS unknown_answers
            FROM provider_evidence ev
            JOIN payment_attempt pa ON pa.id = ev.attempt_id
           WHERE ev.observed_at >= ?
           GROUP BY pa.channel_account_id
        ) e ON e.channel_account_id = ca.id
        LEFT JOIN (
          SELECT channel_account_id,
                 SUM(CASE WHEN status IN ('READY', 'LEASED') THEN 1 ELSE 0 END) AS open_tasks,
                 MIN(CASE WHEN status IN ('READY', 'LEASED') THEN created_at END) AS oldest_open,
                 SUM(CASE WHEN status = 'MANUAL' THEN 1 ELSE 0 END) AS manual_tasks
            FROM recovery_task
           GROUP BY channel_account_id
        ) t ON t.channel_account_id = ca.id
       ORDER BY ca.id
      """;

  /** Every channel account, by id, with its figures of the last hour and its recovery backlog. */
  public List<AccountFigures> accounts(Instant now) {
    return sql.query(
        ACCOUNT_FIGURES,
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
                   SUM(CASE WHEN origin = 'FAILOVER' THEN 1 ELSE 0 END) AS failovers,
                   SUM(CASE WHEN origin = 'BUSINESS_RETRY' THEN 1 ELSE 0 END) AS business_retries,
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

  /** Whole seconds from {@code since} to {@code now}, never negative; null without a start. */
  static Long age(Instant since, Instant now) {
    return since == null ? null : Math.max(0, Duration.between(since, now).toSeconds());
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
