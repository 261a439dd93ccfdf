package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.rows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import dev.clearway.service.api.RunningApi.Rows;
import dev.clearway.store.Sql;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * POST /v1/payments and the polling endpoints over real HTTP: the happy path, replays and reuse of
 * an Idempotency-Key, a key still in use, the synchronous budget, and a double click.
 */
class PaymentFlowHttpTest {
  /** The synchronous budget of this class's service (see {@link RunningApi#start}). */
  private static final Duration BUDGET = Duration.ofMillis(800);

  private static RunningApi api;
  private static ExecutorService clients;

  @BeforeAll
  static void start() {
    api = RunningApi.start();
    clients = Executors.newFixedThreadPool(8);
  }

  @AfterAll
  static void stop() {
    clients.shutdownNow();
    if (api != null) {
      api.close();
    }
  }

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
  }

  @AfterEach
  void releaseGates() {
    api.wallet.releaseAll();
  }

  @Test
  @Tag(TestDatabase.MYSQL_FAMILY)
  void aPaymentSettlesSynchronouslyAndCanBePolled() throws Exception {
    Payment payment = Payment.of(101, "happy-1");

    Answer created = api.pay("key-happy-1", payment);

    assertThat(created.status()).as("%s", created).isEqualTo(201);
    assertThat(created.header("Idempotent-Replayed")).isEmpty();
    assertThat(created.header("Content-Type")).hasValueSatisfying(t -> t.contains("json"));
    JsonNode flow = created.json();
    long flowId = flow.get("flowId").asLong();
    assertThat(flowId).isPositive();
    assertThat(flow.get("tradeOrderNo").asString()).isNotBlank();
    assertThat(flow.get("attemptNo").asInt()).isEqualTo(1);
    assertThat(flow.get("amount").asLong()).isEqualTo(990);
    assertThat(flow.get("currency").asString()).isEqualTo("CNY");
    assertThat(Instant.parse(flow.get("bizDeadline").asString()))
        .isEqualTo(Instant.parse(payment.bizDeadline()));
    assertThat(flow.get("status").asString()).isEqualTo("BIZ_SUCCESS");
    assertThat(flow.get("pollAfterMs") == null || flow.get("pollAfterMs").isNull())
        .as("pollAfterMs of a final status: %s", flow)
        .isTrue();
    assertThat(api.wallet.charges(flow.get("tradeOrderNo").asString())).isEqualTo(1);

    Answer polled = api.flow(flowId);
    assertThat(polled.status()).isEqualTo(200);
    assertThat(polled.json()).isEqualTo(flow);

    Answer byBizKey = api.get("/v1/payment-flows?bizKey=happy-1").send();
    assertThat(byBizKey.status()).isEqualTo(200);
    JsonNode list = byBizKey.json().get("flows");
    assertThat(list.isArray()).as("%s", byBizKey).isTrue();
    assertThat(list.size()).isEqualTo(1);
    assertThat(byBizKey.json().get("nextCursor").isNull()).isTrue();
    assertThat(list.get(0).get("flowId").asLong()).isEqualTo(flowId);
    assertThat(list.get(0).get("status").asString()).isEqualTo("BIZ_SUCCESS");

    Answer otherGoal = api.get("/v1/payment-flows?bizKey=no-such-goal").send();
    assertThat(otherGoal.status()).isEqualTo(200);
    assertThat(otherGoal.json().get("flows").size()).isZero();
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void theSameKeyWithTheSameParametersReplaysTheFlowAndWithOtherParametersIsRefused() {
    Payment payment = Payment.of(102, "replay-1");
    Answer first = api.pay("key-replay-1", payment);
    assertThat(first.status()).as("%s", first).isEqualTo(201);
    Rows before = rows();
    assertThat(before.payFlow()).isEqualTo(1);
    assertThat(before.idempotencyKeys()).isEqualTo(1);

    Answer replay = api.pay("key-replay-1", payment);
    assertThat(replay.status()).as("%s", replay).isEqualTo(200);
    assertThat(replay.header("Idempotent-Replayed")).hasValue("true");
    assertThat(replay.flowId()).isEqualTo(first.flowId());
    assertThat(replay.json().get("tradeOrderNo")).isEqualTo(first.json().get("tradeOrderNo"));
    assertThat(replay.clientStatus()).isEqualTo("BIZ_SUCCESS");

    // The same parameters written differently (field order, fractional seconds) are the same
    // request.
    String sameButReordered =
        "{\"bizDeadline\":\""
            + payment.bizDeadline().replace("Z", ".000Z")
            + "\",\"currency\":\"CNY\",\"amount\":990,\"bizKey\":\"replay-1\","
            + "\"scene\":\"renewal\",\"userId\":102}";
    Answer reordered =
        api.post("/v1/payments").idempotencyKey("key-replay-1").body(sameButReordered).send();
    assertThat(reordered.status()).as("%s", reordered).isEqualTo(200);
    assertThat(reordered.header("Idempotent-Replayed")).hasValue("true");
    assertThat(reordered.flowId()).isEqualTo(first.flowId());

    List<Payment> others =
        List.of(
            payment.withAmount(991L),
            payment.withCurrency("USD"),
            payment.withBizKey("replay-2"),
            payment.withDeadline(
                Instant.parse(payment.bizDeadline()).plus(Duration.ofMinutes(1)).toString()),
            payment.withUserId(103L),
            payment.withScene("topup"));
    for (Payment other : others) {
      Answer refused = api.pay("key-replay-1", other);
      assertThat(refused.status()).as("%s for %s", refused, other).isEqualTo(422);
      assertThat(refused.code()).isEqualTo("idempotency_key_reused");
      assertThat(refused.text("message")).isNotBlank();
      assertThat(refused.header("Idempotent-Replayed")).isEmpty();
      assertThat(rows()).as("rows after %s", other).isEqualTo(before);
    }
    assertThat(api.wallet.charges()).isEqualTo(1);
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void aRetryAfterTheDeadlinePassedGetsTheOriginalFlowNotAValidationError() throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMillis(1_500));
    Payment payment = Payment.of(107, "late-retry-1").withDeadline(deadline.toString());
    Answer first = api.pay("key-late-retry", payment);
    assertThat(first.status()).as("%s", first).isEqualTo(201);
    while (!Instant.now().isAfter(deadline.plusMillis(100))) {
      Thread.sleep(50);
    }
    Rows before = rows();

    Answer retry = api.pay("key-late-retry", payment);
    Answer newKey = api.pay("key-late-new", payment);

    assertThat(retry.status()).as("%s", retry).isEqualTo(200);
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.flowId()).isEqualTo(first.flowId());
    assertThat(newKey.status()).as("%s", newKey).isEqualTo(400);
    assertThat(newKey.code()).isEqualTo("deadline_passed");
    assertThat(rows()).isEqualTo(before);
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void aRetryPastTheDeadlineOfARequestThatDiedBeforeBindingItsKeyGetsThatRequestsFlow()
      throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMillis(1_500));
    Payment payment = Payment.of(108, "died-before-binding-1").withDeadline(deadline.toString());
    Answer first = api.pay("key-died-1", payment);
    assertThat(first.status()).as("%s", first).isEqualTo(201);
    // The node died after creating the flow and before binding the key: the key is still in
    // flight, with a lock that has since expired.
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE idempotency_key SET state = 'IN_FLIGHT', flow_id = NULL,"
                    + " locked_until = ? WHERE idem_key = ?")) {
      ps.setObject(1, Sql.ts(Instant.now().minusSeconds(1)));
      ps.setString(2, "key-died-1");
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    while (!Instant.now().isAfter(deadline.plusMillis(100))) {
      Thread.sleep(50);
    }
    Rows before = rows();

    Answer retry = api.pay("key-died-1", payment);
    Answer otherAmount = api.pay("key-died-2", payment.withAmount(1_234L));

    assertThat(retry.status()).as("%s", retry).isEqualTo(200);
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.flowId()).isEqualTo(first.flowId());
    assertThat(otherAmount.status()).as("%s", otherAmount).isEqualTo(400);
    assertThat(otherAmount.code()).isEqualTo("deadline_passed");
    assertThat(rows().payFlow()).isEqualTo(before.payFlow());
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void aRetryOfARequestThatDiedBeforeBindingItsKeyGetsThatRequestsFlowNotASecondAttempt()
      throws Exception {
    Payment payment = Payment.of(109, "died-before-binding-2");
    Answer first = api.pay("key-died-3", payment);
    assertThat(first.status()).as("%s", first).isEqualTo(201);
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE idempotency_key SET state = 'IN_FLIGHT', flow_id = NULL,"
                    + " locked_until = ? WHERE idem_key = ?")) {
      ps.setObject(1, Sql.ts(Instant.now().minusSeconds(1)));
      ps.setString(2, "key-died-3");
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
    Rows before = rows();

    Answer retry = api.pay("key-died-3", payment);

    assertThat(retry.status()).as("%s", retry).isEqualTo(200);
    assertThat(retry.flowId()).isEqualTo(first.flowId());
    assertThat(rows().payFlow()).isEqualTo(before.payFlow());
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void theSameKeyWhileItsFirstRequestRunsIsInUseAndBothAgreeAfterwards() throws Exception {
    Payment payment = Payment.of(104, "in-use-1");
    GatedWallet.Gate gate = api.wallet.gate(104);

    Future<Answer> first = clients.submit(() -> api.pay("key-in-use-1", payment));
    gate.awaitEntered();
    Answer second;
    Answer otherParameters;
    try {
      second = api.pay("key-in-use-1", payment);
      otherParameters = api.pay("key-in-use-1", payment.withAmount(1990L));
    } finally {
      gate.release();
    }

    assertThat(second.status()).as("%s", second).isEqualTo(409);
    assertThat(second.code()).isEqualTo("idempotency_key_in_use");
    assertThat(second.text("message")).isNotBlank();
    assertThat(otherParameters.status()).as("%s", otherParameters).isEqualTo(422);
    assertThat(otherParameters.code()).isEqualTo("idempotency_key_reused");

    Answer firstAnswer = first.get(10, TimeUnit.SECONDS);
    assertThat(firstAnswer.status()).as("%s", firstAnswer).isEqualTo(201);
    long flowId = firstAnswer.flowId();
    api.awaitStatus(flowId, "BIZ_SUCCESS", Duration.ofSeconds(5));

    Answer retry = api.pay("key-in-use-1", payment);
    assertThat(retry.status()).as("%s", retry).isEqualTo(200);
    assertThat(retry.header("Idempotent-Replayed")).hasValue("true");
    assertThat(retry.flowId()).isEqualTo(flowId);
    assertThat(retry.clientStatus()).isEqualTo("BIZ_SUCCESS");

    assertThat(rows().payFlow()).isEqualTo(1);
    assertThat(rows().idempotencyKeys()).isEqualTo(1);
    assertThat(api.wallet.payCalls(104)).isEqualTo(1);
    assertThat(api.wallet.charges(firstAnswer.text("tradeOrderNo"))).isEqualTo(1);
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void aSlowWalletAnswersProcessingWithinTheBudgetAndPollingShowsTheOutcome() throws Exception {
    Payment payment = Payment.of(105, "slow-1");
    GatedWallet.Gate gate = api.wallet.gate(105);

    long startedAt = System.nanoTime();
    Answer answer;
    try {
      answer = api.pay("key-slow-1", payment);
    } finally {
      gate.release();
    }
    Duration took = Duration.ofNanos(System.nanoTime() - startedAt);

    assertThat(answer.status()).as("%s", answer).isEqualTo(201);
    assertThat(answer.clientStatus()).isEqualTo("PROCESSING");
    assertThat(answer.json().get("pollAfterMs").asLong()).isPositive();
    assertThat(took)
        .as("answered after %s with a budget of %s", took, BUDGET)
        .isGreaterThanOrEqualTo(BUDGET.minusMillis(50))
        .isLessThan(BUDGET.plusMillis(1_000));

    Answer settled = api.awaitStatus(answer.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(5));
    assertThat(settled.json().get("pollAfterMs").isNull()).isTrue();
    assertThat(settled.text("tradeOrderNo")).isEqualTo(answer.text("tradeOrderNo"));

    // A replay now shows the outcome, on the same flow.
    Answer replay = api.pay("key-slow-1", payment);
    assertThat(replay.status()).isEqualTo(200);
    assertThat(replay.flowId()).isEqualTo(answer.flowId());
    assertThat(replay.clientStatus()).isEqualTo("BIZ_SUCCESS");
    assertThat(api.wallet.charges(answer.text("tradeOrderNo"))).isEqualTo(1);
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void aDoubleClickWithTwoKeysNamesTheGoalsLiveAttemptAndCostsOneWalletCall() throws Exception {
    Payment payment = Payment.of(106, "double-1");
    GatedWallet.Gate gate = api.wallet.gate(106);

    Future<Answer> first = clients.submit(() -> api.pay("key-click-1", payment));
    gate.awaitEntered();
    Future<Answer> second;
    try {
      second = clients.submit(() -> api.pay("key-click-2", payment));
      Thread.sleep(200); // the second click is now waiting at the goal's entry lock
    } finally {
      gate.release();
    }
    Answer a = first.get(10, TimeUnit.SECONDS);
    Answer b = second.get(10, TimeUnit.SECONDS);

    assertThat(a.status()).as("%s", a).isEqualTo(201);
    assertThat(b.status()).as("%s", b).isIn(200, 201);
    assertThat(b.flowId()).isEqualTo(a.flowId());
    assertThat(b.text("tradeOrderNo")).isEqualTo(a.text("tradeOrderNo"));
    // The entry lock let the second click wait for the first, so it sees the outcome.
    assertThat(b.clientStatus()).isEqualTo("BIZ_SUCCESS");
    assertThat(api.wallet.payCalls(106)).isEqualTo(1);
    assertThat(api.wallet.charges(a.text("tradeOrderNo"))).isEqualTo(1);
    assertThat(rows().payFlow()).isEqualTo(1);
    assertThat(rows().idempotencyKeys()).isEqualTo(2);
  }

  @Tag(TestDatabase.MYSQL_FAMILY)
  @Test
  void simultaneousDoubleClicksOnManyGoalsEachCostOneCharge() throws Exception {
    int goals = 6;
    List<Answer[]> pairs = new ArrayList<>();
    for (int g = 0; g < goals; g++) {
      long userId = 200 + g;
      Payment payment = Payment.of(userId, "double-many-" + g);
      CountDownLatch go = new CountDownLatch(1);
      Future<Answer> a =
          clients.submit(
              () -> {
                go.await();
                return api.pay("click-a-" + userId, payment);
              });
      Future<Answer> b =
          clients.submit(
              () -> {
                go.await();
                return api.pay("click-b-" + userId, payment);
              });
      go.countDown();
      pairs.add(new Answer[] {a.get(10, TimeUnit.SECONDS), b.get(10, TimeUnit.SECONDS)});
    }
    for (int g = 0; g < goals; g++) {
      Answer[] pair = pairs.get(g);
      assertThat(pair[0].status()).as("%s", pair[0]).isIn(200, 201);
      assertThat(pair[1].status()).as("%s", pair[1]).isIn(200, 201);
      assertThat(List.of(pair[0].status(), pair[1].status())).containsOnlyOnce(201);
      assertThat(pair[1].flowId()).isEqualTo(pair[0].flowId());
      assertThat(api.wallet.charges(pair[0].text("tradeOrderNo"))).isEqualTo(1);
      assertThat(api.wallet.payCalls(200 + g)).isEqualTo(1);
    }
    assertThat(rows().payFlow()).isEqualTo(goals);
  }
}
