package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.count;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.api.RunningApi.Answer;
import dev.clearway.service.api.RunningApi.Payment;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Two merchants on one service: each sees only its own payments and refunds. Another merchant's
 * flow or refund answers exactly as one that does not exist, so sequential ids cannot be probed;
 * the same business goal and the same Idempotency-Key belong to each merchant separately; a list is
 * bounded and pages newest first.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class MerchantIsolationHttpTest {
  private static final String KEY_A = "shop_a_key_5c1e9a7b3d2f4e6a";
  private static final String KEY_B = "shop_b_key_8e2d4c6a0f1b3e5d";

  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start("clearway.keys.merchant=shop-a=" + KEY_A + ",shop-b=" + KEY_B);
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
  }

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
    TestDatabase.get().truncate("refund_order", "refund_order_history");
  }

  @Test
  void anotherMerchantsFlowAnswersAsAFlowThatDoesNotExist() throws Exception {
    long flowOfA = pay(KEY_A, "iso-a-1", Payment.of(301, "iso-goal-1")).flowId();
    api.awaitStatusAs(KEY_A, flowOfA, "BIZ_SUCCESS", Duration.ofSeconds(20));
    long missing = flowOfA + 1_000_000;

    Answer readByB = as(KEY_B, "GET", "/v1/payment-flows/" + flowOfA).send();
    Answer readMissing = as(KEY_B, "GET", "/v1/payment-flows/" + missing).send();
    Answer cancelByB = as(KEY_B, "POST", "/v1/payment-flows/" + flowOfA + "/cancel").send();
    Answer refundByB =
        as(KEY_B, "POST", "/v1/payment-flows/" + flowOfA + "/refunds")
            .idempotencyKey("probe-1")
            .body("{\"amount\": 100, \"reason\": \"probe\"}")
            .send();
    Answer refundsOfAByB = as(KEY_B, "GET", "/v1/payment-flows/" + flowOfA + "/refunds").send();

    for (Answer answer : List.of(readByB, cancelByB, refundByB, refundsOfAByB)) {
      assertThat(answer.status()).as("%s", answer).isEqualTo(404);
      assertThat(answer.code()).isEqualTo("flow_not_found");
      assertThat(answer.body()).isEqualTo(readMissing.body());
    }
    assertThat(count("SELECT count(*) FROM refund_order")).isZero();
    Answer stillA = as(KEY_A, "GET", "/v1/payment-flows/" + flowOfA).send();
    assertThat(stillA.status()).isEqualTo(200);
    assertThat(stillA.text("status")).isEqualTo("BIZ_SUCCESS");
    assertThat(stillA.json().get("cancelRequested").asBoolean()).isFalse();
  }

  @Test
  void anotherMerchantsRefundAnswersAsARefundThatDoesNotExist() throws Exception {
    long flowOfA = pay(KEY_A, "iso-a-2", Payment.of(302, "iso-goal-2")).flowId();
    api.awaitStatusAs(KEY_A, flowOfA, "BIZ_SUCCESS", Duration.ofSeconds(20));
    Answer refund =
        as(KEY_A, "POST", "/v1/payment-flows/" + flowOfA + "/refunds")
            .idempotencyKey("refund-a-1")
            .body("{\"amount\": 100, \"reason\": \"damaged\"}")
            .send();
    assertThat(refund.status()).as("%s", refund).isEqualTo(201);
    long refundId = refund.json().get("refundId").asLong();

    Answer byB = as(KEY_B, "GET", "/v1/refunds/" + refundId).send();
    Answer missing = as(KEY_B, "GET", "/v1/refunds/" + (refundId + 1_000_000)).send();
    Answer byA = as(KEY_A, "GET", "/v1/refunds/" + refundId).send();

    assertThat(byB.status()).isEqualTo(404);
    assertThat(byB.code()).isEqualTo("refund_not_found");
    assertThat(byB.body()).isEqualTo(missing.body());
    assertThat(byA.status()).isEqualTo(200);
  }

  @Test
  void theSameGoalAndKeyFromAnotherMerchantCreateThatMerchantsOwnFlow() throws Exception {
    Payment goal = Payment.of(303, "shared-goal");
    Answer ofA = pay(KEY_A, "shared-key", goal);
    Answer ofB = pay(KEY_B, "shared-key", goal);
    Answer replayOfB = pay(KEY_B, "shared-key", goal);
    Answer otherKeyOfB = pay(KEY_B, "other-key", goal);

    assertThat(ofA.status()).as("%s", ofA).isEqualTo(201);
    assertThat(ofB.status()).as("%s", ofB).isEqualTo(201);
    assertThat(ofB.flowId()).isNotEqualTo(ofA.flowId());
    assertThat(replayOfB.flowId()).isEqualTo(ofB.flowId());
    assertThat(replayOfB.header("Idempotent-Replayed")).contains("true");
    // A fresh key for the same goal finds the goal's live attempt, B's own.
    assertThat(otherKeyOfB.flowId()).isEqualTo(ofB.flowId());
    assertThat(
            count(
                "SELECT count(*) FROM pay_flow WHERE biz_key = 'shared-goal'"
                    + " AND merchant_id IN ('shop-a', 'shop-b')"))
        .isEqualTo(2);
    assertThat(count("SELECT count(*) FROM idempotency_key WHERE idem_key = 'shared-key'"))
        .isEqualTo(2);
    api.awaitStatusAs(KEY_A, ofA.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(20));
    api.awaitStatusAs(KEY_B, ofB.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(20));
    assertThat(api.wallet.charges(ofA.text("tradeOrderNo"))).isEqualTo(1);
    assertThat(api.wallet.charges(ofB.text("tradeOrderNo"))).isEqualTo(1);
    // Each event names the merchant it concerns.
    assertThat(
            count(
                "SELECT count(*) FROM outbox_event WHERE aggregate_id = "
                    + ofB.flowId()
                    + " AND merchant_id = 'shop-b'"))
        .isPositive();
    assertThat(count("SELECT count(*) FROM outbox_event WHERE merchant_id IS NULL")).isZero();
  }

  @Test
  void aListShowsOnlyTheCallersFlowsAtMostOneHundredNewestFirstWithACursor() {
    // 130 attempts of one business key for A (one goal per user), 3 for B.
    insertFlows("shop-a", "listed-goal", 130);
    insertFlows("shop-b", "listed-goal", 3);

    Set<Long> seen = new HashSet<>();
    List<Long> order = new ArrayList<>();
    Answer first = as(KEY_A, "GET", "/v1/payment-flows?bizKey=listed-goal").send();
    assertThat(first.status()).as("%s", first).isEqualTo(200);
    JsonNode firstPage = first.json().get("flows");
    assertThat(firstPage.size()).isEqualTo(100);
    firstPage.forEach(f -> order.add(f.get("flowId").asLong()));
    String cursor = first.text("nextCursor");
    assertThat(cursor).isNotNull();
    Answer second =
        as(KEY_A, "GET", "/v1/payment-flows?bizKey=listed-goal&cursor=" + cursor).send();
    second.json().get("flows").forEach(f -> order.add(f.get("flowId").asLong()));
    assertThat(second.json().get("flows").size()).isEqualTo(30);
    assertThat(second.json().get("nextCursor").isNull()).isTrue();
    seen.addAll(order);

    assertThat(seen).hasSize(130);
    assertThat(order).isSortedAccordingTo((x, y) -> Long.compare(y, x));
    Answer ofB = as(KEY_B, "GET", "/v1/payment-flows?bizKey=listed-goal").send();
    assertThat(ofB.json().get("flows").size()).isEqualTo(3);
    Answer small = as(KEY_B, "GET", "/v1/payment-flows?bizKey=listed-goal&limit=2").send();
    assertThat(small.json().get("flows").size()).isEqualTo(2);
    assertThat(small.text("nextCursor")).isNotNull();
    Answer tooBig = as(KEY_B, "GET", "/v1/payment-flows?bizKey=listed-goal&limit=101").send();
    Answer badCursor = as(KEY_B, "GET", "/v1/payment-flows?bizKey=listed-goal&cursor=x").send();
    assertThat(tooBig.status()).isEqualTo(400);
    assertThat(tooBig.code()).isEqualTo("invalid_parameter");
    assertThat(badCursor.status()).isEqualTo(400);
    assertThat(badCursor.code()).isEqualTo("invalid_cursor");
  }

  /** {@code n} closed attempts of one business key, one per user, written as a backfill would. */
  private static void insertFlows(String merchant, String bizKey, int n) {
    RunningApi.insertFlows(
        "merchant_id, user_id, scene, biz_key, attempt_no, status, amount, currency,"
            + " biz_deadline_time, next_retry_time, created_at, updated_at",
        "SELECT '"
            + merchant
            + "', 9000 + g, 'renewal', '"
            + bizKey
            + "', 1, 'CLOSED', 100, 'CNY', now(), now(), now(), now() FROM "
            + TestSql.series(1, n, "g"));
  }

  private static Answer pay(String key, String idempotencyKey, Payment payment) {
    return as(key, "POST", "/v1/payments")
        .idempotencyKey(idempotencyKey)
        .body(payment.json())
        .send();
  }

  private static RunningApi.Call as(String key, String method, String path) {
    return api.call(method, path).bearer(key).contentType("application/json");
  }
}
