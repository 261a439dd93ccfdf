package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.APPROVER_KEY;
import static dev.clearway.service.api.RunningApi.MERCHANT_KEY;
import static dev.clearway.service.api.RunningApi.OPERATOR_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The console's channel endpoints over real HTTP on rows inserted with SQL: the account table with
 * its unknown share and recovery backlog, the oldest tasks, an order's evidence timeline; 422 for a
 * malformed trade order number, 404 for an unknown one; no key 401, a merchant key 403.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ChannelConsoleHttpTest {
  private static final String CHANNELS = "/ops/console/channels";

  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @BeforeEach
  void clean() {
    RunningApi.resetDatabase();
    TestDatabase.get().truncateChannelTables();
  }

  private static Answer get(String path, String key) {
    return api.call("GET", path).bearer(key).send();
  }

  private static JsonNode ok(String path) {
    Answer a = get(path, OPERATOR_KEY);
    assertThat(a.status()).as("%s", a).isEqualTo(200);
    assertThat(a.header("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("json"));
    return a.json();
  }

  private static void assertError(Answer a, int status, String code) {
    assertThat(a.status()).as("%s", a).isEqualTo(status);
    assertThat(a.code()).as("%s", a).isEqualTo(code);
    assertThat(a.text("message")).isNotBlank();
  }

  @Test
  void emptyChannelTablesGiveEmptyListsNeverErrors() {
    JsonNode channels = ok(CHANNELS);
    assertThat(channels.get("accounts").isArray()).isTrue();
    assertThat(channels.get("accounts")).isEmpty();
    assertThat(channels.get("windowSeconds").asLong()).isEqualTo(3600);
    JsonNode totals = channels.get("totals");
    assertThat(totals.get("attempts").asLong()).isZero();
    assertThat(totals.get("openTasks").asLong()).isZero();
    assertThat(totals.get("oldestOpenTaskAgeSeconds").isNull()).isTrue();
    JsonNode comp = channels.get("compensations");
    assertThat(comp.get("byStatus").get("MANUAL").asLong()).isZero();
    assertThat(comp.get("manual").get("items")).isEmpty();
    assertThat(comp.get("manual").get("nextCursor").isNull()).isTrue();

    JsonNode tasks = ok(CHANNELS + "/tasks");
    assertThat(tasks.get("items").isArray()).isTrue();
    assertThat(tasks.get("items")).isEmpty();
    assertThat(tasks.get("nextCursor").isNull()).isTrue();

    assertError(get(CHANNELS + "/orders/T_none", OPERATOR_KEY), 404, "order_not_found");
  }

  @Test
  void accountsTasksAndAnOrdersTimelineFromTheChannelTables() {
    insertOutage();
    MeterRegistry meters = api.bean(MeterRegistry.class);
    Gauge.builder("clearway.channel.circuit.open", () -> 1.0).tag("account", "1").register(meters);

    JsonNode channels = ok(CHANNELS);
    JsonNode accounts = channels.get("accounts");
    assertThat(accounts).hasSize(2);
    JsonNode a = accounts.get(0);
    assertThat(a.get("id").asLong()).isEqualTo(1);
    assertThat(a.get("channel").asString()).isEqualTo("stripe");
    assertThat(a.get("accountRef").asString()).isEqualTo("acct_a");
    assertThat(a.get("failureDomain").asString()).isEqualTo("psp:stripe-a");
    assertThat(a.get("attemptsByStatus").get("UNKNOWN").asLong()).isEqualTo(1);
    assertThat(a.get("attemptsByStatus").get("FAILED").asLong()).isEqualTo(1);
    assertThat(a.get("answers").asLong()).isEqualTo(4);
    assertThat(a.get("unknownAnswers").asLong()).isEqualTo(2);
    assertThat(a.get("unknownShare").asDouble()).isEqualTo(0.5);
    assertThat(a.get("openTasks").asLong()).isEqualTo(1);
    assertThat(a.get("oldestOpenTaskAgeSeconds").asLong()).isBetween(595L, 660L);
    assertThat(a.get("manualTasks").asLong()).isZero();
    assertThat(a.get("circuit").asString()).isEqualTo("OPEN");
    assertThat(a.get("circuitNote").asString()).startsWith("open: no new creates");
    JsonNode b = accounts.get(1);
    assertThat(b.get("unknownShare").asDouble()).isZero();
    assertThat(b.get("manualTasks").asLong()).isEqualTo(1);
    assertThat(b.get("circuit").isNull()).isTrue();
    assertThat(b.get("circuitNote").asString()).isEqualTo("no circuit in this process");
    JsonNode totals = channels.get("totals");
    assertThat(totals.get("attempts").asLong()).isEqualTo(4);
    assertThat(totals.get("failovers").asLong()).isEqualTo(1);
    assertThat(totals.get("businessRetries").asLong()).isEqualTo(1);
    assertThat(totals.get("openTasks").asLong()).isEqualTo(1);
    assertThat(totals.get("manualTasks").asLong()).isEqualTo(1);
    JsonNode comp = channels.get("compensations");
    assertThat(comp.get("byStatus").get("MANUAL").asLong()).isEqualTo(1);
    assertThat(comp.get("byStatus").get("PENDING").asLong()).isZero();
    JsonNode manual = comp.get("manual").get("items").get(0);
    assertThat(manual.get("tradeOrderNo").asString()).isEqualTo("T_2");
    assertThat(manual.get("merchantId").asString()).isEqualTo("shop-b");

    JsonNode tasks = ok(CHANNELS + "/tasks").get("items");
    assertThat(tasks).hasSize(2);
    assertThat(tasks.get(0).get("status").asString()).isEqualTo("MANUAL");
    assertThat(tasks.get(0).get("tradeOrderNo").asString()).isEqualTo("T_2");
    assertThat(tasks.get(0).get("merchantId").asString()).isEqualTo("shop-b");
    assertThat(tasks.get(1).get("merchantId").asString()).isEqualTo("shop-a");
    assertThat(tasks.get(1).get("status").asString()).isEqualTo("LEASED");
    assertThat(tasks.get(1).get("attemptId").asLong()).isEqualTo(102);
    assertThat(tasks.get(1).get("strategy").asString()).isEqualTo("QUERY");
    assertThat(tasks.get(1).get("policyVersion").asString()).isEqualTo("v3");
    assertThat(tasks.get(1).get("lastError").asString()).isEqualTo("psp_timeout");
    assertThat(tasks.get(1).get("dueAt").isNull()).isFalse();

    JsonNode order = ok(CHANNELS + "/orders/T_1");
    assertThat(order.get("tradeOrderNo").asString()).isEqualTo("T_1");
    assertThat(order.get("status").asString()).isEqualTo("OPEN");
    assertThat(order.get("merchantId").asString()).isEqualTo("shop-a");
    JsonNode attempts = order.get("attempts").get("items");
    assertThat(attempts).hasSize(2);
    assertThat(order.get("attempts").get("nextCursor").isNull()).isTrue();
    // Newest first: the failover, then the attempt that failed.
    assertThat(attempts.get(1).get("attemptId").asLong()).isEqualTo(101);
    assertThat(attempts.get(1).get("status").asString()).isEqualTo("FAILED");
    assertThat(attempts.get(0).get("origin").asString()).isEqualTo("FAILOVER");
    assertThat(attempts.get(0).get("previousAttemptId").asLong()).isEqualTo(101);
    assertThat(attempts.get(0).get("recoveryTaskStatus").asString()).isEqualTo("LEASED");
    JsonNode evidence = attempts.get(0).get("evidence").get("items");
    assertThat(evidence).hasSize(2);
    assertThat(evidence.get(1).get("source").asString()).isEqualTo("RESPONSE");
    assertThat(evidence.get(1).get("certainty").asString()).isEqualTo("UNKNOWN");
    assertThat(evidence.get(1).get("requestId").asString()).isEqualTo("req-102-1");
    assertThat(evidence.get(1).get("policyVersion").asString()).isEqualTo("v3");
    assertThat(evidence.get(0).get("providerStatus").asString()).isEqualTo("NOTPAY");
    // Never the raw response's hash nor anything of the raw body.
    assertThat(order.toString()).doesNotContain("raw").doesNotContain("f".repeat(64));
  }

  @Test
  void aMalformedTradeOrderNumberIs422AndAnUnknownOne404() {
    insertOutage();
    for (String bad : List.of("T-1", "a.b", "T!1", "T~1", "x".repeat(65))) {
      Answer a = get(CHANNELS + "/orders/" + bad, OPERATOR_KEY);
      assertThat(a.status()).as("%s: %s", bad, a).isEqualTo(422);
      assertError(a, 422, "invalid_trade_order_no");
    }
    // A percent-encoded path never reaches a controller: ApiKeyFilter names no resource for it.
    assertError(get(CHANNELS + "/orders/T%201", OPERATOR_KEY), 404, "not_found");
    assertError(get(CHANNELS + "/orders/T_404", OPERATOR_KEY), 404, "order_not_found");
    assertThat(get(CHANNELS + "/orders/" + "T".repeat(64), OPERATOR_KEY).status()).isEqualTo(404);
    assertThat(get(CHANNELS + "/orders/T_1", APPROVER_KEY).status()).isEqualTo(200);
  }

  @Test
  void noKeyIs401AndAMerchantKeyIs403() {
    insertOutage();
    for (String path :
        List.of(
            CHANNELS,
            CHANNELS + "/tasks",
            CHANNELS + "/orders/T_1",
            CHANNELS + "/attempts/102/evidence")) {
      Answer none = api.call("GET", path).send();
      assertError(none, 401, "unauthorized");
      assertThat(none.body()).doesNotContain("acct_a");
      assertError(get(path, "not-a-key"), 401, "unauthorized");
      assertError(get(path, MERCHANT_KEY), 403, "forbidden");
    }
  }

  @Test
  void tasksCompensationsAndEvidencePageThroughLongListsWithACursor() {
    insertOutage();
    insertLongLists();

    List<JsonNode> tasks = Paging.all(api, OPERATOR_KEY, CHANNELS + "/tasks");
    assertThat(tasks).hasSize(132);
    // Due longest ago first; ties by task id; no task lost or repeated across pages.
    List<Instant> due = tasks.stream().map(t -> Instant.parse(t.get("dueAt").asString())).toList();
    assertThat(due).isSorted();
    assertThat(Paging.longs(tasks, "taskId")).doesNotHaveDuplicates();
    assertThat(tasks.get(0).get("tradeOrderNo").asString()).isEqualTo("T_2");
    assertThat(tasks.get(0).get("merchantId").asString()).isEqualTo("shop-b");
    List<JsonNode> small = Paging.all(api, OPERATOR_KEY, CHANNELS + "/tasks?limit=7");
    assertThat(Paging.longs(small, "taskId")).isEqualTo(Paging.longs(tasks, "taskId"));

    List<JsonNode> manual =
        Paging.all(api, OPERATOR_KEY, CHANNELS, c -> c.get("compensations").get("manual"));
    assertThat(manual).hasSize(131);
    assertThat(Paging.longs(manual, "attemptId"))
        .isSortedAccordingTo((x, y) -> Long.compare(y, x))
        .doesNotHaveDuplicates();

    JsonNode order = ok(CHANNELS + "/orders/T_1");
    JsonNode first = order.get("attempts").get("items").get(0).get("evidence");
    assertThat(first.get("items")).hasSize(100);
    List<JsonNode> evidence = Paging.all(api, OPERATOR_KEY, CHANNELS + "/attempts/102/evidence");
    assertThat(evidence).hasSize(132);
    assertThat(Paging.longs(evidence, "id")).isSortedAccordingTo((x, y) -> Long.compare(y, x));
    assertThat(evidence.get(100).get("id").asLong())
        .isLessThan(Long.parseLong(first.get("nextCursor").asString()));
    List<JsonNode> attempts =
        Paging.all(api, OPERATOR_KEY, CHANNELS + "/orders/T_1?limit=1", o -> o.get("attempts"));
    assertThat(Paging.longs(attempts, "attemptId")).containsExactly(102L, 101L);
  }

  @Test
  void aBadCursorOrLimitIs400AndAnUnknownAttempt404() {
    insertOutage();
    for (String path :
        List.of(
            CHANNELS,
            CHANNELS + "/tasks",
            CHANNELS + "/orders/T_1",
            CHANNELS + "/attempts/102/evidence")) {
      Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, path);
    }
    assertError(get(CHANNELS + "/attempts/99999/evidence", OPERATOR_KEY), 404, "attempt_not_found");
  }

  /**
   * 130 more open tasks (5 of them due at one instant), 130 more MANUAL compensations, and 130 more
   * pieces of evidence on attempt 102.
   */
  private static void insertLongLists() {
    RunningApi.execute(
        """
        INSERT INTO payment_order
          (trade_order_no, amount, currency, payment_method, status, created_at, updated_at)
        SELECT CONCAT('T_p', g), 990, 'CNY', 'wallet', 'OPEN', now(), now()
          FROM %1$s;
        INSERT INTO payment_attempt
          (id, trade_order_no, seq, channel_account_id, origin, provider_idempotency_key,
           create_request_hash, status, result_certainty, amount, currency, payment_method,
           created_at, updated_at)
        SELECT 1000 + g, CONCAT('T_p', g), 1, 2, 'INITIAL', CONCAT('kp', g), repeat('0', 64),
               'FAILED',
               'DEFINITE_FAILURE', 990, 'CNY', 'wallet', now(), now()
          FROM %1$s;
        INSERT INTO recovery_task
          (attempt_id, channel_account_id, status, strategy, due_at, attempt_count,
           policy_version, created_at, updated_at)
        SELECT 1000 + g, 2, 'READY', 'QUERY',
               %2$s + %3$s, 0, 'v3',
               now(), now()
          FROM %1$s;
        INSERT INTO attempt_compensation
          (attempt_id, trade_order_no, refund_no, amount, status, reason, due_at, created_at,
           updated_at)
        SELECT 1000 + g, CONCAT('T_p', g), CONCAT('CRp', g), 990, 'MANUAL', 'LATE_SUCCESS', now(),
               now(), now()
          FROM %1$s;
        INSERT INTO provider_evidence
          (attempt_id, source, operation, certainty, request_id, observed_at)
        SELECT 102, 'QUERY', 'RETRIEVE', 'UNKNOWN', CONCAT('req-p', g), now()
          FROM %1$s;
        """
            .formatted(
                TestSql.series(1, 130, "g"),
                TestSql.nowToTheSecond(),
                TestSql.interval("greatest(g, 5)", "minute")));
  }

  /**
   * Account 1 (stripe): order T_1's first attempt failed definitely; its second attempt (a FAILOVER
   * row, kept on the same account for the figures) is UNKNOWN with a LEASED recovery task. Account
   * 2 (wechat): T_2's attempt three hours ago charged although recorded as failed (compensation
   * MANUAL, task MANUAL) and its business retry failed; T_3 succeeded.
   */
  private static void insertOutage() {
    RunningApi.execute(
        """
        INSERT INTO channel_account
          (id, channel, account_ref, failure_domain, payment_methods, priority)
        VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1),
               (2, 'wechat', 'mch_b', 'psp:wechat', 'wallet', 2);
        INSERT INTO payment_order
          (trade_order_no, amount, currency, payment_method, status, created_at, updated_at)
        VALUES ('T_1', 1500, 'EUR', 'card', 'OPEN', now() - interval '20 minutes', now()),
               ('T_2', 990, 'CNY', 'wallet', 'OPEN', now() - interval '3 hours', now()),
               ('T_3', 990, 'CNY', 'wallet', 'OPEN', now() - interval '5 minutes', now());
        INSERT INTO payment_attempt
          (id, trade_order_no, seq, channel_account_id, origin, previous_attempt_id,
           provider_idempotency_key, create_request_hash, status, result_certainty, error_code,
           amount, currency, payment_method, created_at, updated_at)
        VALUES
          (101, 'T_1', 1, 1, 'INITIAL', NULL, 'k101', repeat('0', 64), 'FAILED',
           'DEFINITE_FAILURE', 'card_declined', 1500, 'EUR', 'card',
           now() - interval '15 minutes', now() - interval '15 minutes'),
          (102, 'T_1', 2, 1, 'FAILOVER', 101, 'k102', repeat('0', 64), 'UNKNOWN',
           'UNKNOWN', NULL, 1500, 'EUR', 'card',
           now() - interval '10 minutes', now() - interval '10 minutes'),
          (201, 'T_2', 1, 2, 'INITIAL', NULL, 'k201', repeat('0', 64), 'FAILED',
           'DEFINITE_FAILURE', 'PAYERROR', 990, 'CNY', 'wallet',
           now() - interval '3 hours', now() - interval '3 hours'),
          (202, 'T_3', 1, 2, 'INITIAL', NULL, 'k202', repeat('0', 64), 'SUCCEEDED',
           'CONFIRMED_SUCCESS', NULL, 990, 'CNY', 'wallet',
           now() - interval '5 minutes', now() - interval '5 minutes'),
          (203, 'T_2', 2, 2, 'BUSINESS_RETRY', 201, 'k203', repeat('0', 64), 'FAILED',
           'DEFINITE_FAILURE', NULL, 990, 'CNY', 'wallet',
           now() - interval '2 minutes', now() - interval '2 minutes');
        INSERT INTO provider_evidence
          (attempt_id, source, operation, certainty, provider_status, error_code, request_id,
           raw_sha256, policy_version, observed_at)
        VALUES
          (101, 'RESPONSE', 'CREATE', 'DEFINITE_FAILURE', 'card_declined', 'card_declined',
           'req-101-1', repeat('f', 64), 'v3', now() - interval '15 minutes'),
          (101, 'QUERY', 'RETRIEVE', 'UNKNOWN', NULL, 'psp_timeout',
           'req-101-2', repeat('f', 64), 'v3', now() - interval '14 minutes'),
          (102, 'RESPONSE', 'CREATE', 'UNKNOWN', NULL, 'connect_timeout',
           'req-102-1', repeat('f', 64), 'v3', now() - interval '10 minutes'),
          (102, 'QUERY', 'RETRIEVE', 'PENDING', 'NOTPAY', NULL,
           'req-102-2', repeat('f', 64), 'v3', now() - interval '5 minutes'),
          (202, 'RESPONSE', 'CREATE', 'CONFIRMED_SUCCESS', 'SUCCESS', NULL,
           'req-202-1', repeat('f', 64), 'v3', now() - interval '5 minutes');
        INSERT INTO recovery_task
          (attempt_id, channel_account_id, status, strategy, due_at, attempt_count,
           policy_version, last_error, created_at, updated_at)
        VALUES
          (102, 1, 'LEASED', 'QUERY', now() + interval '30 seconds', 2, 'v3', 'psp_timeout',
           now() - interval '10 minutes', now()),
          (201, 2, 'MANUAL', 'QUERY', now() - interval '2 hours', 9, 'v2', 'unknown_too_long',
           now() - interval '3 hours', now());
        INSERT INTO attempt_compensation
          (attempt_id, trade_order_no, refund_no, amount, status, reason, last_error, due_at,
           created_at, updated_at)
        VALUES (201, 'T_2', 'CR201', 990, 'MANUAL', 'LATE_SUCCESS', 'refund_abnormal',
                now(), now() - interval '1 hour', now());
        """);
    RunningApi.insertFlows(
        """
        merchant_id, user_id, scene, biz_key, attempt_no, status, amount, currency,
        biz_deadline_time, next_retry_time, trade_order_no, refund_order_no, created_at,
        updated_at""",
        """
        SELECT 'shop-a', 1, 'renewal', 'console-1', 1, 'BIZ_SUCCESS', 1500, 'EUR', now(), now(),
               'T_1', 'r_T_1', now(), now()
        UNION ALL
        SELECT 'shop-b', 2, 'renewal', 'console-2', 1, 'BIZ_SUCCESS', 990, 'CNY', now(), now(),
               'T_2', 'r_T_2', now(), now()
        """);
  }
}
