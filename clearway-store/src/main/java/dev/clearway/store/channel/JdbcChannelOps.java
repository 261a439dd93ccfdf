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
  private static final List<String> OPEN_TASKS = List.of("READY", "LEASED");
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

  /** An account's row of channel_account. */
  private record Account(
      long id, String channel, String accountRef, String failureDomain, boolean enabled) {}

  /** A count of rows of one account (0 for a row whose account is missing) and one group. */
  private record Count(long accountId, String group, long n, Instant oldest) {}

  /**
   * Every channel account, by id, with its figures of the last hour and its recovery backlog. The
   * accounts and each table's counts are statements of their own, grouped by account and status and
   * put together here, the same on every database: a sharding driver sums each count over the
   * shards, and cannot join the per-payment tables with channel_account (a single table on the
   * first database).
   */
  public List<AccountFigures> accounts(Instant now) {
    List<Account> accounts =
        sql.query(
            "SELECT id, channel, account_ref, failure_domain, enabled FROM channel_account"
                + " ORDER BY id",
            ps -> {},
            rs ->
                new Account(
                    rs.getLong("id"),
                    rs.getString("channel"),
                    rs.getString("account_ref"),
                    rs.getString("failure_domain"),
                    rs.getBoolean("enabled")));
    List<Count> attempts =
        counts(
            "SELECT channel_account_id AS account, status AS grp, count(*) AS n,"
                + " min(created_at) AS oldest FROM payment_attempt WHERE created_at >= ?"
                + " GROUP BY channel_account_id, status",
            now);
    List<Count> answers =
        counts(
            "SELECT pa.channel_account_id AS account, ev.certainty AS grp, count(*) AS n,"
                + " min(ev.observed_at) AS oldest FROM provider_evidence ev"
                + " JOIN payment_attempt pa ON pa.id = ev.attempt_id WHERE ev.observed_at >= ?"
                + " GROUP BY pa.channel_account_id, ev.certainty",
            now);
    List<Count> tasks = taskCounts();
    return accounts.stream().map(a -> figures(a, attempts, answers, tasks, now)).toList();
  }

  private static AccountFigures figures(
      Account a, List<Count> attempts, List<Count> answers, List<Count> tasks, Instant now) {
    Map<String, Long> byStatus = new LinkedHashMap<>();
    ATTEMPT_STATUSES.forEach(st -> byStatus.put(st, 0L));
    attempts.stream()
        .filter(c -> c.accountId() == a.id() && byStatus.containsKey(c.group()))
        .forEach(c -> byStatus.merge(c.group(), c.n(), Long::sum));
    long all = sum(answers, a.id(), null);
    long unknown = sum(answers, a.id(), List.of("UNKNOWN"));
    Instant oldestOpen =
        tasks.stream()
            .filter(c -> c.accountId() == a.id() && OPEN_TASKS.contains(c.group()))
            .map(Count::oldest)
            .filter(t -> t != null)
            .min(Instant::compareTo)
            .orElse(null);
    return new AccountFigures(
        a.id(),
        a.channel(),
        a.accountRef(),
        a.failureDomain(),
        a.enabled(),
        byStatus,
        all,
        unknown,
        all == 0 ? null : (double) unknown / all,
        sum(tasks, a.id(), OPEN_TASKS),
        age(oldestOpen, now),
        sum(tasks, a.id(), List.of("MANUAL")));
  }

  /** The counts of {@code accountId} (any account: null) in {@code groups} (every group: null). */
  private static long sum(List<Count> counts, Long accountId, List<String> groups) {
    return counts.stream()
        .filter(c -> accountId == null || c.accountId() == accountId)
        .filter(c -> groups == null || groups.contains(c.group()))
        .mapToLong(Count::n)
        .sum();
  }

  private List<Count> counts(String statement, Instant now) {
    return sql.query(
        statement,
        ps -> ps.setObject(1, Sql.ts(now.minus(WINDOW))),
        rs -> new Count(rs.getLong("account"), rs.getString("grp"), rs.getLong("n"), oldest(rs)));
  }

  /** Recovery tasks by account and status, with the oldest creation of each group. */
  private List<Count> taskCounts() {
    return sql.query(
        "SELECT channel_account_id AS account, status AS grp, count(*) AS n,"
            + " min(created_at) AS oldest FROM recovery_task GROUP BY channel_account_id, status",
        ps -> {},
        rs -> new Count(rs.getLong("account"), rs.getString("grp"), rs.getLong("n"), oldest(rs)));
  }

  private static Instant oldest(ResultSet rs) throws SQLException {
    return instant(rs, "oldest");
  }

  /**
   * Figures over all accounts (a task whose account row is missing still counts here): attempts of
   * the window by origin, tasks by status, each a statement of its own.
   */
  public Totals totals(Instant now) {
    List<Count> origins =
        sql.query(
            "SELECT origin, count(*) AS n FROM payment_attempt WHERE created_at >= ?"
                + " GROUP BY origin",
            ps -> ps.setObject(1, Sql.ts(now.minus(WINDOW))),
            rs -> new Count(0, rs.getString("origin"), rs.getLong("n"), null));
    List<Count> tasks = taskCounts();
    Instant oldestOpen =
        tasks.stream()
            .filter(c -> OPEN_TASKS.contains(c.group()))
            .map(Count::oldest)
            .filter(t -> t != null)
            .min(Instant::compareTo)
            .orElse(null);
    return new Totals(
        sum(origins, null, null),
        sum(origins, null, List.of("FAILOVER")),
        sum(origins, null, List.of("BUSINESS_RETRY")),
        sum(tasks, null, OPEN_TASKS),
        age(oldestOpen, now),
        sum(tasks, null, List.of("MANUAL")));
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
