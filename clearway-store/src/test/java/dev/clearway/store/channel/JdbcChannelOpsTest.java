package dev.clearway.store.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.store.Sql;
import dev.clearway.store.channel.JdbcChannelOps.AccountFigures;
import dev.clearway.store.channel.JdbcChannelOps.Totals;
import dev.clearway.store.channel.JdbcChannelQueues.TaskKey;
import dev.clearway.store.channel.JdbcChannelQueues.TaskRow;
import dev.clearway.store.channel.JdbcOrderTimeline.AttemptTimeline;
import dev.clearway.store.channel.JdbcOrderTimeline.EvidenceRow;
import dev.clearway.store.channel.JdbcOrderTimeline.OrderTimeline;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's channel figures and lists read from the channel tables of the real PostgreSQL: the
 * lists page with a key, each row names its payment's merchant.
 */
class JdbcChannelOpsTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private final DataSource dataSource = TestDatabase.get().dataSource();
  private final JdbcChannelOps ops = new JdbcChannelOps(dataSource);
  private final JdbcChannelQueues queues = new JdbcChannelQueues(dataSource);
  private final JdbcOrderTimeline timeline = new JdbcOrderTimeline(dataSource);

  @BeforeEach
  void clean() throws SQLException {
    exec(
        "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
            + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
            + " payment_order, channel_account CASCADE");
    TestDatabase.get().reset();
  }

  @Test
  void emptyTablesGiveEmptyListsAndZeroes() {
    assertThat(ops.accounts(NOW)).isEmpty();
    assertThat(ops.totals(NOW)).isEqualTo(new Totals(0, 0, 0, 0, null, 0));
    assertThat(ops.compensationsByStatus())
        .containsExactly(
            Map.entry("PENDING", 0L), Map.entry("REFUNDED", 0L), Map.entry("MANUAL", 0L));
    assertThat(queues.manualCompensations(Long.MAX_VALUE, 50)).isEmpty();
    assertThat(queues.tasks(null, 50, NOW)).isEmpty();
    assertThat(timeline.order("T_none", Integer.MAX_VALUE, 10, 10)).isEmpty();
  }

  @Test
  void perAccountAttemptsOfTheLastHourUnknownShareAndRecoveryBacklog() throws SQLException {
    accounts();
    order("T_1");
    order("T_2");
    order("T_3");
    order("T_old");
    // Account 1: one UNKNOWN attempt (3 answers, 2 of them UNKNOWN), one FAILED, one old.
    attempt(101, "T_1", 1, 1, "INITIAL", null, "UNKNOWN", NOW.minusSeconds(600));
    attempt(102, "T_2", 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(300));
    attempt(103, "T_old", 1, 1, "INITIAL", null, "SUCCEEDED", NOW.minus(Duration.ofHours(2)));
    evidence(101, "RESPONSE", "CREATE", "UNKNOWN", NOW.minusSeconds(599));
    evidence(101, "QUERY", "RETRIEVE", "UNKNOWN", NOW.minusSeconds(500));
    evidence(102, "RESPONSE", "CREATE", "DEFINITE_FAILURE", NOW.minusSeconds(299));
    // Evidence older than the hour does not count, even on an attempt of the hour.
    evidence(103, "RESPONSE", "CREATE", "UNKNOWN", NOW.minus(Duration.ofHours(2)));
    // Account 2: the failover of T_2 succeeded, and a business retry.
    attempt(201, "T_2", 2, 2, "FAILOVER", 102L, "SUCCEEDED", NOW.minusSeconds(200));
    evidence(201, "RESPONSE", "CREATE", "CONFIRMED_SUCCESS", NOW.minusSeconds(199));
    attempt(104, "T_3", 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(120));
    attempt(202, "T_3", 2, 2, "BUSINESS_RETRY", 104L, "PENDING", NOW.minusSeconds(100));
    task(101, 1, "LEASED", NOW.minusSeconds(590));
    task(103, 1, "MANUAL", NOW.minus(Duration.ofHours(2)));
    task(202, 2, "READY", NOW.minusSeconds(90));
    task(201, 2, "RESOLVED", NOW.minusSeconds(190));

    List<AccountFigures> accounts = ops.accounts(NOW);

    assertThat(accounts).extracting(AccountFigures::id).containsExactly(1L, 2L, 3L);
    AccountFigures a = accounts.get(0);
    assertThat(a.channel()).isEqualTo("stripe");
    assertThat(a.accountRef()).isEqualTo("acct_a");
    assertThat(a.failureDomain()).isEqualTo("psp:stripe-a");
    assertThat(a.attemptsByStatus())
        .containsExactly(
            Map.entry("CREATED", 0L),
            Map.entry("PENDING", 0L),
            Map.entry("UNKNOWN", 1L),
            Map.entry("SUCCEEDED", 0L),
            Map.entry("FAILED", 2L));
    assertThat(a.answers()).isEqualTo(3);
    assertThat(a.unknownAnswers()).isEqualTo(2);
    assertThat(a.unknownShare()).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(a.openTasks()).isEqualTo(1);
    assertThat(a.oldestOpenTaskAgeSeconds()).isEqualTo(590L);
    assertThat(a.manualTasks()).isEqualTo(1);

    AccountFigures b = accounts.get(1);
    assertThat(b.attemptsByStatus()).containsEntry("SUCCEEDED", 1L).containsEntry("PENDING", 1L);
    assertThat(b.unknownShare()).isZero();
    assertThat(b.openTasks()).isEqualTo(1);
    assertThat(b.oldestOpenTaskAgeSeconds()).isEqualTo(90L);
    assertThat(b.manualTasks()).isZero();

    AccountFigures idle = accounts.get(2);
    assertThat(idle.attemptsByStatus().values()).containsOnly(0L);
    assertThat(idle.answers()).isZero();
    assertThat(idle.unknownShare()).isNull();
    assertThat(idle.oldestOpenTaskAgeSeconds()).isNull();

    assertThat(ops.totals(NOW)).isEqualTo(new Totals(5, 1, 1, 2, 590L, 1));
  }

  @Test
  void openOrManualTasksDueLongestAgoFirstWithTheirOrderAccountAndMerchant() throws SQLException {
    accounts();
    for (int i = 0; i < 4; i++) {
      order("T_" + i);
      attempt(300 + i, "T_" + i, 1, 1, "INITIAL", null, "UNKNOWN", NOW.minusSeconds(1000));
    }
    task(300, 1, "READY", NOW.minusSeconds(100));
    task(301, 1, "MANUAL", NOW.minusSeconds(400));
    task(302, 1, "RESOLVED", NOW.minusSeconds(900));
    task(303, 1, "LEASED", NOW.minusSeconds(200));
    flow("shop-a", "T_1");

    List<TaskRow> tasks = queues.tasks(null, 50, NOW);

    assertThat(tasks).extracting(TaskRow::attemptId).containsExactly(301L, 303L, 300L);
    TaskRow manual = tasks.get(0);
    assertThat(manual.tradeOrderNo()).isEqualTo("T_1");
    assertThat(manual.merchantId()).isEqualTo("shop-a");
    assertThat(tasks.get(1).merchantId()).isNull();
    assertThat(manual.channel()).isEqualTo("stripe");
    assertThat(manual.accountRef()).isEqualTo("acct_a");
    assertThat(manual.status()).isEqualTo("MANUAL");
    assertThat(manual.strategy()).isEqualTo("QUERY");
    assertThat(manual.attempts()).isEqualTo(3);
    assertThat(manual.lastError()).isEqualTo("psp_timeout");
    assertThat(manual.policyVersion()).isEqualTo("v7");
    assertThat(manual.dueAt()).isEqualTo(NOW.minusSeconds(400).plusSeconds(30));
    assertThat(manual.ageSeconds()).isEqualTo(400);
    // Page by page after the (due time, id) of the last task read.
    List<TaskRow> first = queues.tasks(null, 1, NOW);
    assertThat(first).extracting(TaskRow::attemptId).containsExactly(301L);
    TaskKey after = new TaskKey(first.get(0).dueAt(), first.get(0).taskId());
    assertThat(queues.tasks(after, 5, NOW))
        .extracting(TaskRow::attemptId)
        .containsExactly(303L, 300L);
    assertThatThrownBy(() -> queues.tasks(null, 0, NOW))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void tasksDueAtTheSameInstantPageByIdWithoutLosingOne() throws SQLException {
    accounts();
    for (int i = 0; i < 5; i++) {
      order("T_" + i);
      attempt(600 + i, "T_" + i, 1, 1, "INITIAL", null, "UNKNOWN", NOW.minusSeconds(1000));
      task(600 + i, 1, "READY", NOW.minusSeconds(100));
    }
    List<Long> seen = new java.util.ArrayList<>();
    TaskKey after = null;
    for (List<TaskRow> page = queues.tasks(null, 2, NOW);
        !page.isEmpty();
        page = queues.tasks(after, 2, NOW)) {
      page.forEach(t -> seen.add(t.attemptId()));
      TaskRow last = page.get(page.size() - 1);
      after = new TaskKey(last.dueAt(), last.taskId());
    }
    assertThat(seen).containsExactly(600L, 601L, 602L, 603L, 604L);
  }

  @Test
  void compensationsByStatusAndTheManualOnes() throws SQLException {
    accounts();
    for (int i = 0; i < 5; i++) {
      order("T_" + i);
      attempt(400 + i, "T_" + i, 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(1000));
    }
    compensation(400, "T_0", "PENDING");
    compensation(401, "T_1", "MANUAL");
    compensation(402, "T_2", "REFUNDED");
    compensation(403, "T_3", "REFUNDED");

    assertThat(ops.compensationsByStatus())
        .containsExactly(
            Map.entry("PENDING", 1L), Map.entry("REFUNDED", 2L), Map.entry("MANUAL", 1L));
    compensation(404, "T_4", "MANUAL");
    flow("shop-b", "T_1");
    assertThat(queues.manualCompensations(Long.MAX_VALUE, 50))
        .extracting(JdbcChannelQueues.ManualCompensation::attemptId)
        .containsExactly(404L, 401L);
    assertThat(queues.manualCompensations(404, 50))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.attemptId()).isEqualTo(401);
              assertThat(c.merchantId()).isEqualTo("shop-b");
              assertThat(c.tradeOrderNo()).isEqualTo("T_1");
              assertThat(c.refundNo()).isEqualTo("CR401");
              assertThat(c.amount()).isEqualTo(1500);
              assertThat(c.reason()).isEqualTo("LATE_SUCCESS");
              assertThat(c.lastError()).isEqualTo("refund_abnormal");
            });
  }

  @Test
  void anOrdersAttemptsNewestFirstWithTheirNewestEvidence() throws SQLException {
    accounts();
    order("T_9");
    flow("shop-c", "T_9");
    attempt(501, "T_9", 1, 1, "INITIAL", null, "FAILED", NOW.minusSeconds(60));
    attempt(502, "T_9", 2, 2, "FAILOVER", 501L, "UNKNOWN", NOW.minusSeconds(30));
    evidence(501, "RESPONSE", "CREATE", "DEFINITE_FAILURE", NOW.minusSeconds(59));
    evidence(502, "RESPONSE", "CREATE", "UNKNOWN", NOW.minusSeconds(29));
    evidence(502, "QUERY", "RETRIEVE", "PENDING", NOW.minusSeconds(10));
    evidence(502, "QUERY", "RETRIEVE_AGAIN", "PENDING", NOW.minusSeconds(5));
    task(502, 2, "LEASED", NOW.minusSeconds(29));
    compensation(501, "T_9", "PENDING");

    OrderTimeline order = timeline.order("T_9", Integer.MAX_VALUE, 10, 10).orElseThrow();

    assertThat(order.tradeOrderNo()).isEqualTo("T_9");
    assertThat(order.merchantId()).isEqualTo("shop-c");
    assertThat(order.amount()).isEqualTo(1500);
    assertThat(order.currency()).isEqualTo("EUR");
    assertThat(order.status()).isEqualTo("OPEN");
    assertThat(order.attempts()).extracting(AttemptTimeline::attemptId).containsExactly(502L, 501L);
    AttemptTimeline first = order.attempts().get(1);
    assertThat(first.origin()).isEqualTo("INITIAL");
    assertThat(first.previousAttemptId()).isNull();
    assertThat(first.channel()).isEqualTo("stripe");
    assertThat(first.compensationStatus()).isEqualTo("PENDING");
    assertThat(first.recoveryTaskStatus()).isNull();
    assertThat(first.evidence())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.certainty()).isEqualTo("DEFINITE_FAILURE");
              assertThat(e.providerStatus()).isEqualTo("status_DEFINITE_FAILURE");
              assertThat(e.requestId()).isEqualTo("req-501-CREATE");
              assertThat(e.policyVersion()).isEqualTo("v7");
              assertThat(e.observedAt()).isEqualTo(NOW.minusSeconds(59));
            });
    AttemptTimeline second = order.attempts().get(0);
    assertThat(second.origin()).isEqualTo("FAILOVER");
    assertThat(second.previousAttemptId()).isEqualTo(501L);
    assertThat(second.accountRef()).isEqualTo("mch_b");
    assertThat(second.recoveryTaskStatus()).isEqualTo("LEASED");
    assertThat(second.evidence())
        .extracting(EvidenceRow::operation)
        .containsExactly("RETRIEVE_AGAIN", "RETRIEVE", "CREATE");

    // One attempt per page, two pieces of evidence per attempt; the rest page on their own.
    OrderTimeline page = timeline.order("T_9", Integer.MAX_VALUE, 1, 2).orElseThrow();
    assertThat(page.attempts()).singleElement().satisfies(a -> assertThat(a.seq()).isEqualTo(2));
    List<EvidenceRow> shown = page.attempts().get(0).evidence();
    assertThat(shown)
        .extracting(EvidenceRow::operation)
        .containsExactly("RETRIEVE_AGAIN", "RETRIEVE");
    assertThat(timeline.evidence(502, shown.get(1).id(), 10))
        .extracting(EvidenceRow::operation)
        .containsExactly("CREATE");
    assertThat(timeline.order("T_9", 2, 10, 10).orElseThrow().attempts())
        .extracting(AttemptTimeline::attemptId)
        .containsExactly(501L);
    assertThat(timeline.attemptExists(502)).isTrue();
    assertThat(timeline.attemptExists(999)).isFalse();

    assertThat(timeline.order("T_other", Integer.MAX_VALUE, 10, 10)).isEmpty();
  }

  @Test
  void anOrderWithoutAttemptsHasAnEmptyTimeline() throws SQLException {
    order("T_closed");

    assertThat(timeline.order("T_closed", Integer.MAX_VALUE, 10, 10))
        .hasValueSatisfying(
            o -> {
              assertThat(o.attempts()).isEmpty();
              assertThat(o.merchantId()).isNull();
            });
  }

  /** A closed flow whose trade order number is {@code tradeOrderNo}, owned by {@code merchant}. */
  private void flow(String merchant, String tradeOrderNo) throws SQLException {
    update(
        "INSERT INTO pay_flow (merchant_id, user_id, scene, biz_key, attempt_no, status, amount,"
            + " currency, biz_deadline_time, next_retry_time, trade_order_no, refund_order_no,"
            + " created_at, updated_at) VALUES (?, 1, 'renewal', ?, 1, 'CLOSED', 1500, 'EUR',"
            + " now(), now(), ?, ?, now(), now())",
        merchant,
        "goal-" + tradeOrderNo,
        tradeOrderNo,
        "r_" + tradeOrderNo);
  }

  // ---- rows -------------------------------------------------------------------------------

  private void accounts() throws SQLException {
    exec(
        "INSERT INTO channel_account"
            + " (id, channel, account_ref, failure_domain, payment_methods, priority)"
            + " VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1),"
            + " (2, 'wechat', 'mch_b', 'psp:wechat', 'wallet', 2),"
            + " (3, 'stripe', 'acct_idle', 'psp:stripe-b', 'card', 3)");
  }

  private void order(String tradeOrderNo) throws SQLException {
    update(
        "INSERT INTO payment_order (trade_order_no, amount, currency, payment_method,"
            + " status, created_at, updated_at) VALUES (?, 1500, 'EUR', 'card', 'OPEN', ?, ?)",
        tradeOrderNo,
        Sql.ts(NOW.minusSeconds(3600)),
        Sql.ts(NOW.minusSeconds(3600)));
  }

  private void attempt(
      long id,
      String tradeOrderNo,
      int seq,
      long account,
      String origin,
      Long previous,
      String status,
      Instant created)
      throws SQLException {
    update(
        "INSERT INTO payment_attempt (id, trade_order_no, seq, channel_account_id, origin,"
            + " previous_attempt_id, provider_idempotency_key, create_request_hash, status,"
            + " result_certainty, amount, currency, payment_method, created_at, updated_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'CERTAIN', 1500, 'EUR', 'pm_card_visa', ?, ?)",
        id,
        tradeOrderNo,
        seq,
        account,
        origin,
        previous,
        "key-" + id,
        "0".repeat(64),
        status,
        Sql.ts(created),
        Sql.ts(created));
  }

  private void evidence(
      long attemptId, String source, String operation, String certainty, Instant at)
      throws SQLException {
    update(
        "INSERT INTO provider_evidence (attempt_id, source, operation, certainty,"
            + " provider_status, request_id, raw_sha256, policy_version, observed_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, 'v7', ?)",
        attemptId,
        source,
        operation,
        certainty,
        "status_" + certainty,
        "req-" + attemptId + "-" + operation,
        "f".repeat(64),
        Sql.ts(at));
  }

  private void task(long attemptId, long account, String status, Instant created)
      throws SQLException {
    update(
        "INSERT INTO recovery_task (attempt_id, channel_account_id, status, strategy, due_at,"
            + " attempt_count, policy_version, last_error, created_at, updated_at)"
            + " VALUES (?, ?, ?, 'QUERY', ?, 3, 'v7', 'psp_timeout', ?, ?)",
        attemptId,
        account,
        status,
        Sql.ts(created.plusSeconds(30)),
        Sql.ts(created),
        Sql.ts(created));
  }

  private void compensation(long attemptId, String tradeOrderNo, String status)
      throws SQLException {
    update(
        "INSERT INTO attempt_compensation (attempt_id, trade_order_no, refund_no, amount, status,"
            + " reason, last_error, due_at, created_at, updated_at)"
            + " VALUES (?, ?, ?, 1500, ?, 'LATE_SUCCESS', ?, ?, ?, ?)",
        attemptId,
        tradeOrderNo,
        "CR" + attemptId,
        status,
        "MANUAL".equals(status) ? "refund_abnormal" : null,
        Sql.ts(NOW),
        Sql.ts(NOW.minusSeconds(attemptId)),
        Sql.ts(NOW));
  }

  private void update(String statement, Object... params) throws SQLException {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(statement)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      ps.executeUpdate();
    }
  }

  private void exec(String statement) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(statement);
    }
  }
}
