package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.APPROVER_KEY;
import static dev.clearway.service.api.RunningApi.OPERATOR_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.policy.DryRun;
import dev.clearway.core.channel.policy.DryRunReport;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.RecordedAttempt;
import dev.clearway.core.channel.policy.RecordedHistory;
import dev.clearway.psp.policy.ChannelCapabilities;
import dev.clearway.psp.policy.DefaultRecoveryPolicy;
import dev.clearway.psp.policy.YamlPolicyParser;
import dev.clearway.store.Sql;
import dev.clearway.store.channel.JdbcRecordedAttempts;
import dev.clearway.store.channel.JdbcRecoveryPolicyStore;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Recovery policies over real HTTP on the shared database: the dry run replays more recorded
 * attempts than a page, page by page (the store is asked for one page at a time), and reports
 * exactly what the dry run over the whole history in memory reports; the versions and a version's
 * audit trail page newest first with a cursor.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class PolicyListsHttpTest {
  private static final long SEED = 20260301L;
  private static final int ATTEMPTS = 2 * DryRun.PAGE + 345;
  private static final String CANDIDATE = "faster-2026-03-01";

  private static final DataSource DATA = TestDatabase.get().dataSource();
  private static final CountingHistory HISTORY =
      new CountingHistory(new JdbcRecordedAttempts(DATA));
  private static RunningApi api;

  @BeforeAll
  static void start() throws Exception {
    TestDatabase.get().truncate("recovery_policy_event", "recovery_policy");
    PolicyRegistry registry =
        new PolicyRegistry(
            new JdbcRecoveryPolicyStore(DATA),
            new YamlPolicyParser(),
            ChannelCapabilities.all(),
            Clock.systemUTC());
    registry.activateInitial(DefaultRecoveryPolicy.text(), PolicyRegistry.SYSTEM);
    api = RunningApi.startWith(Map.of("policyRegistry", registry, "recordedHistory", HISTORY));
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    TestDatabase.get().truncate("recovery_policy_event", "recovery_policy");
  }

  @BeforeEach
  void clean() {
    TestDatabase.get().truncateChannelTables();
    RunningApi.execute(
        """
        INSERT INTO channel_account
          (id, channel, account_ref, failure_domain, payment_methods, priority)
        VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1),
               (2, 'wechat', 'mch_b', 'psp:wechat', 'wallet', 2),
               (3, 'paypal', 'pp_c', 'psp:paypal', 'card', 3);
        """);
  }

  @Test
  void theDryRunReadsPageByPageAndReportsWhatTheWholeHistoryInMemoryDoes() throws Exception {
    List<RecordedAttempt> recorded = record(new Random(SEED));
    String good =
        DefaultRecoveryPolicy.text()
            .replace("version: default-2026-01-01", "version: " + CANDIDATE)
            .replace("delays: [10s, 30s, 2m, 10m, 30m]", "delays: [5s, 20s, 1m, 10m, 30m]")
            .replace(
                "max_unknown_age: 2h\n    query_qps: 20", "max_unknown_age: 1h\n    query_qps: 2");
    RunningApi.Answer draft =
        api.call("POST", "/ops/policies")
            .bearer(OPERATOR_KEY)
            .contentType("text/plain")
            .body(good)
            .send();
    assertThat(draft.status()).as("%s", draft).isEqualTo(201);
    assertThat(post("/validate").status()).isEqualTo(200);
    HISTORY.reset();

    RunningApi.Answer dryRun = post("/dry-run");

    assertThat(dryRun.status()).as("%s", dryRun).isEqualTo(200);
    YamlPolicyParser parser = new YamlPolicyParser();
    DryRunReport expected =
        new DryRun()
            .run(
                parser.parse(DefaultRecoveryPolicy.text()),
                parser.parse(good),
                ChannelCapabilities.all(),
                recorded);
    JsonNode report = dryRun.json();
    assertThat(report.get("total").asInt()).isEqualTo(ATTEMPTS).isEqualTo(expected.total());
    assertThat(Instant.parse(report.get("asOf").asString())).isEqualTo(expected.asOf());
    assertThat(report.get("unresolvedPastMaxAge").get("count").asInt())
        .isEqualTo(expected.unresolvedPastMaxAge().count())
        .isPositive();
    assertThat(report.get("unmatched").get("count").asInt())
        .isEqualTo(expected.unmatched().count())
        .isPositive();
    // The whole report, as the registry records it on the version, word for word.
    JsonNode stored =
        api.call("GET", "/ops/policies/" + CANDIDATE).bearer(OPERATOR_KEY).send().json();
    assertThat(stored.get("policy").get("dryRunReport").asString()).isEqualTo(expected.toText());
    // One read, one page at a time: the store was never asked for more than a page.
    assertThat(HISTORY.opened.get()).isEqualTo(1);
    assertThat(HISTORY.pages.get()).isEqualTo(ATTEMPTS / DryRun.PAGE + 1);
    assertThat(HISTORY.largestPage.get()).isEqualTo(DryRun.PAGE);
    assertThat(HISTORY.largestLimit.get()).isEqualTo(DryRun.PAGE);
  }

  @Test
  void versionsAndAVersionsAuditTrailPageNewestFirst() {
    // 130 older versions, the last 5 created at the same instant, and 130 audit events on one.
    RunningApi.execute(
        """
        INSERT INTO recovery_policy
          (version, body, body_sha256, status, created_by, created_at, updated_at)
        SELECT CONCAT('old-', g), 'x', repeat('0', 64), 'RETIRED', 'olivia',
               %2$s - %3$s, now()
          FROM %1$s;
        INSERT INTO recovery_policy_event (version, action, actor, reason, at, detail)
        SELECT 'old-7', 'PAUSE', 'olivia', CONCAT('pause ', g), now(), NULL
          FROM %1$s;
        """
            .formatted(
                TestSql.series(1, 130, "g"),
                TestSql.nowToTheSecond(),
                TestSql.interval("30 + greatest(g, 5)", "day")));
    long stored = RunningApi.count("SELECT count(*) FROM recovery_policy");

    List<JsonNode> versions =
        Paging.all(api, APPROVER_KEY, "/ops/policies", o -> o.get("versions"));

    assertThat(versions).hasSize((int) stored);
    List<Instant> created =
        versions.stream().map(v -> Instant.parse(v.get("createdAt").asString())).toList();
    assertThat(created).isSortedAccordingTo(Comparator.reverseOrder());
    assertThat(versions.stream().map(v -> v.get("version").asString())).doesNotHaveDuplicates();
    assertThat(versions.get(0).get("status").asString()).isIn("ACTIVE", "VALIDATED");
    List<JsonNode> seven =
        Paging.all(api, OPERATOR_KEY, "/ops/policies?limit=7", o -> o.get("versions"));
    assertThat(seven.stream().map(v -> v.get("version").asString()).toList())
        .isEqualTo(versions.stream().map(v -> v.get("version").asString()).toList());

    List<JsonNode> audit =
        Paging.all(api, OPERATOR_KEY, "/ops/policies/old-7", d -> d.get("audit"));
    assertThat(audit).hasSize(130);
    assertThat(audit.get(0).get("reason").asString()).isEqualTo("pause 130");
    assertThat(Paging.longs(audit, "id")).isSortedAccordingTo((x, y) -> Long.compare(y, x));

    Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, "/ops/policies");
    Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, "/ops/policies/old-7");
  }

  private static RunningApi.Answer post(String action) {
    return api.call("POST", "/ops/policies/" + CANDIDATE + action).bearer(OPERATOR_KEY).send();
  }

  /**
   * Writes {@link #ATTEMPTS} attempts of the last three days as the channel layer would have, and
   * returns them as the dry run should read them, oldest first: stripe card, wechat wallet and a
   * channel no rule covers; resolved within minutes or after hours, or never; with recovery calls
   * (queries and replays) and other evidence.
   */
  private static List<RecordedAttempt> record(Random random) throws SQLException {
    Instant start = Instant.now().minus(Duration.ofDays(3)).truncatedTo(ChronoUnit.SECONDS);
    List<RecordedAttempt> attempts = new ArrayList<>();
    try (Connection c = DATA.getConnection();
        Rows rows = new Rows(c)) {
      for (int i = 0; i < ATTEMPTS; i++) {
        attempts.add(rows.add(10_000 + i, start, random));
      }
      rows.flush();
    }
    attempts.sort(
        Comparator.comparing(RecordedAttempt::createdAt)
            .thenComparingLong(RecordedAttempt::attemptId));
    return attempts;
  }

  /** Batched inserts of payment orders, attempts, their history and their evidence. */
  private static final class Rows implements AutoCloseable {
    private final PreparedStatement order;
    private final PreparedStatement attempt;
    private final PreparedStatement history;
    private final PreparedStatement evidence;

    Rows(Connection c) throws SQLException {
      order =
          c.prepareStatement(
              "INSERT INTO payment_order (trade_order_no, amount, currency, payment_method,"
                  + " status, created_at, updated_at) VALUES (?, 990, 'EUR', ?, 'OPEN', ?, ?)");
      attempt =
          c.prepareStatement(
              "INSERT INTO payment_attempt (id, trade_order_no, seq, channel_account_id, origin,"
                  + " provider_idempotency_key, create_request_hash, status, result_certainty,"
                  + " amount, currency, payment_method, created_at, updated_at) VALUES (?, ?, 1,"
                  + " ?, 'INITIAL', ?, repeat('0', 64), ?, 'CERTAIN', 990, 'EUR', 'pm_token', ?,"
                  + " ?)");
      history =
          c.prepareStatement(
              "INSERT INTO payment_attempt_history (attempt_id, version, from_status, to_status,"
                  + " certainty, source, at) VALUES (?, ?, ?, ?, 'CERTAIN', 'QUERY', ?)");
      evidence =
          c.prepareStatement(
              "INSERT INTO provider_evidence (attempt_id, source, operation, certainty,"
                  + " observed_at) VALUES (?, ?, ?, 'UNKNOWN', ?)");
    }

    /** One attempt, drawn from {@code random}, and what the dry run should read of it. */
    RecordedAttempt add(long id, Instant start, Random random) throws SQLException {
      int kind = random.nextInt(20);
      long account = kind < 12 ? 1 : kind < 19 ? 2 : 3;
      String channel = account == 1 ? "stripe" : account == 2 ? "wechat" : "paypal";
      String method = account == 2 ? "wallet" : "card";
      // A few attempts share their creation instant: the pages must order them by id.
      Instant created = start.plusSeconds(random.nextInt(60 * 60 * 60) / 7 * 7);
      int outcome = random.nextInt(10);
      Instant resolved =
          outcome < 6
              ? created.plusSeconds(1 + random.nextInt(600))
              : outcome < 8 ? created.plus(Duration.ofMinutes(70 + random.nextInt(120))) : null;
      // A final attempt without a history row into its final status resolves at its last update.
      boolean historyless = resolved != null && random.nextInt(10) == 0;
      String status = resolved == null ? "UNKNOWN" : random.nextBoolean() ? "SUCCEEDED" : "FAILED";
      row(order, "T_dry_" + id, method, Sql.ts(created), Sql.ts(created));
      Instant updated = historyless ? resolved : created.plusSeconds(3 * 3600);
      row(
          attempt,
          id,
          "T_dry_" + id,
          account,
          "k_dry_" + id,
          status,
          Sql.ts(created),
          Sql.ts(updated));
      row(history, id, 1L, "CREATED", "UNKNOWN", Sql.ts(created.plusSeconds(1)));
      if (resolved != null && !historyless) {
        row(history, id, 2L, "UNKNOWN", status, Sql.ts(resolved));
      }
      int calls = 0;
      for (int e = random.nextInt(5); e > 0; e--) {
        int type = random.nextInt(3);
        String source = type == 0 ? "QUERY" : type == 1 ? "RESPONSE" : "CALLBACK";
        row(
            evidence,
            id,
            source,
            type == 1 ? "REPLAY" : "RETRIEVE",
            Sql.ts(created.plusSeconds(5)));
        calls += type < 2 ? 1 : 0;
      }
      return new RecordedAttempt(id, channel, method, Operation.CREATE, created, resolved, calls);
    }

    private static void row(PreparedStatement ps, Object... values) throws SQLException {
      for (int i = 0; i < values.length; i++) {
        ps.setObject(i + 1, values[i]);
      }
      ps.addBatch();
    }

    void flush() throws SQLException {
      order.executeBatch();
      attempt.executeBatch();
      history.executeBatch();
      evidence.executeBatch();
    }

    @Override
    public void close() throws SQLException {
      order.close();
      attempt.close();
      history.close();
      evidence.close();
    }
  }

  /** The store's recorded history, counting the reads and the pages it is asked for. */
  private static final class CountingHistory implements RecordedHistory {
    private final RecordedHistory store;
    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger pages = new AtomicInteger();
    final AtomicInteger largestPage = new AtomicInteger();
    final AtomicInteger largestLimit = new AtomicInteger();

    CountingHistory(RecordedHistory store) {
      this.store = store;
    }

    void reset() {
      opened.set(0);
      pages.set(0);
      largestPage.set(0);
      largestLimit.set(0);
    }

    @Override
    public Reading open(Instant from) {
      opened.incrementAndGet();
      Reading reading = store.open(from);
      return new Reading() {
        @Override
        public Instant asOf() {
          return reading.asOf();
        }

        @Override
        public List<RecordedAttempt> next(int limit) {
          pages.incrementAndGet();
          largestLimit.accumulateAndGet(limit, Math::max);
          List<RecordedAttempt> page = reading.next(limit);
          largestPage.accumulateAndGet(page.size(), Math::max);
          return page;
        }

        @Override
        public void close() {
          reading.close();
        }
      };
    }
  }
}
