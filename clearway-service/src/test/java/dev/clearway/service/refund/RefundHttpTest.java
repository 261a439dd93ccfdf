package dev.clearway.service.refund;

import static dev.clearway.service.refund.RefundHttpService.MERCHANT_KEY;
import static dev.clearway.service.refund.RefundHttpService.OPERATOR_KEY;
import static dev.clearway.service.refund.RefundHttpService.refundRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import dev.clearway.service.refund.RefundHttpService.Answer;
import dev.clearway.service.refund.RefundHttpService.RefundRows;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * After-sales refunds through the real service over HTTP: who may be refunded, by how much, the
 * idempotency of the request, and what the wallet sees (each refund number executed at most once,
 * never more money back than was charged).
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class RefundHttpTest {
  private static RefundHttpService api;
  private static ExecutorService clients;
  private static long users = 500;

  @BeforeAll
  static void start() {
    api = RefundHttpService.start();
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
    RefundHttpService.resetDatabase();
    api.wallet.forgetRequests();
  }

  @AfterEach
  void walletInvariants() {
    assertWalletNeverRefundedANumberTwiceNorMoreThanCharged();
  }

  private static long nextUser() {
    return ++users;
  }

  @Test
  void aBizSuccessFlowIsRefundedAndTheRefundCanBeRead() {
    Answer flow = api.paidFlow(nextUser(), "refund-happy", 990);
    long flowId = flow.number("flowId");
    String trade = flow.text("tradeOrderNo");

    Answer created = api.refund(flowId, "rk-happy", 400, "damaged on arrival");

    assertThat(created.status()).as("%s", created).isEqualTo(201);
    assertThat(created.header("Idempotent-Replayed")).isEmpty();
    JsonNode body = created.json();
    long refundId = body.get("refundId").asLong();
    assertThat(created.header("Location")).contains("/v1/refunds/" + refundId);
    assertThat(body.get("refundNo").asString()).isEqualTo("a_" + trade + "_1");
    assertThat(body.get("flowId").asLong()).isEqualTo(flowId);
    assertThat(body.get("seq").asInt()).isEqualTo(1);
    assertThat(body.get("amount").asLong()).isEqualTo(400);
    assertThat(body.get("currency").asString()).isEqualTo("CNY");
    assertThat(body.get("reason").asString()).isEqualTo("damaged on arrival");
    assertThat(body.get("status").asString()).isEqualTo("SUCCESS");
    assertThat(body.get("pollAfterMs").isNull()).isTrue();

    Answer read = api.get("/v1/refunds/" + refundId);
    assertThat(read.status()).isEqualTo(200);
    assertThat(read.json()).isEqualTo(body);
    Answer listed = api.get("/v1/payment-flows/" + flowId + "/refunds");
    assertThat(listed.status()).isEqualTo(200);
    assertThat(listed.json().get("refunds").size()).isEqualTo(1);
    assertThat(listed.json().get("refunds").get(0).get("refundId").asLong()).isEqualTo(refundId);
    assertThat(listed.json().get("nextCursor").isNull()).isTrue();

    // the payment itself is untouched: still BIZ_SUCCESS, no compensation refund
    assertThat(api.get("/v1/payment-flows/" + flowId).text("status")).isEqualTo("BIZ_SUCCESS");
    assertThat(api.wallet.refundRequests())
        .extracting(RefundRequest::refundOrderNo)
        .containsExactly("a_" + trade + "_1");
    assertThat(api.wallet.refundRequests().get(0).tradeOrderNo()).isEqualTo(trade);
  }

  @Test
  void aFlowThatDidNotReachBizSuccessIsRefusedAndNothingIsWritten() {
    Answer failed = api.pay(nextUser(), "refund-pay-fail", RefundTrackingWallet.REJECTED_AMOUNT);
    assertThat(failed.text("status")).as("%s", failed).isEqualTo("PAY_FAIL");
    RefundRows before = refundRows();

    Answer refused = api.refund(failed.number("flowId"), "rk-refused", 5, "goodwill");
    Answer unknown = api.refund(987_654_321L, "rk-unknown", 5, "goodwill");

    assertThat(refused.status()).as("%s", refused).isEqualTo(409);
    assertThat(refused.code()).isEqualTo("refund_not_allowed");
    assertThat(refused.text("message")).contains("PAY_FAIL");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.code()).isEqualTo("flow_not_found");
    assertThat(refundRows()).isEqualTo(before).isEqualTo(new RefundRows(0, 0));
    assertThat(api.wallet.refundRequests()).isEmpty();
    assertThat(api.get("/v1/payment-flows/987654321/refunds").code()).isEqualTo("flow_not_found");
  }

  @Test
  void anOverRefundIsRefusedAndPartialRefundsAddUpToTheCharge() {
    long flowId = api.paidFlow(nextUser(), "refund-over", 990).number("flowId");

    Answer first = api.refund(flowId, "rk-o1", 600, "partial");
    RefundRows afterFirst = refundRows();
    Answer tooMuch = api.refund(flowId, "rk-o2", 391, "partial");
    Answer rest = api.refund(flowId, "rk-o3", 390, "partial");
    Answer oneMore = api.refund(flowId, "rk-o4", 1, "partial");
    Answer more = api.refund(flowId, "rk-o5", 991, "all of it");

    assertThat(first.status()).isEqualTo(201);
    assertThat(tooMuch.status()).as("%s", tooMuch).isEqualTo(422);
    assertThat(tooMuch.code()).isEqualTo("refund_exceeds_payment");
    assertThat(tooMuch.text("message")).contains("390");
    assertThat(rest.status()).isEqualTo(201);
    assertThat(rest.json().get("seq").asInt()).isEqualTo(2);
    assertThat(oneMore.code()).isEqualTo("refund_exceeds_payment");
    assertThat(more.code()).isEqualTo("refund_exceeds_payment");
    assertThat(refundRows().refunds()).isEqualTo(afterFirst.refunds() + 1);
    assertThat(api.get("/v1/payment-flows/" + flowId + "/refunds").json().get("refunds").size())
        .isEqualTo(2);
  }

  @Test
  void badInputIsRefusedWithStableCodesAndWritesNothing() {
    long flowId = api.paidFlow(nextUser(), "refund-bad", 990).number("flowId");
    String path = "/v1/payment-flows/" + flowId + "/refunds";

    Map<String, Answer> answers = new HashMap<>();
    answers.put("zero", api.refund(flowId, "rk-b1", "{\"amount\": 0, \"reason\": \"x\"}"));
    answers.put("negative", api.refund(flowId, "rk-b2", "{\"amount\": -5, \"reason\": \"x\"}"));
    answers.put("no amount", api.refund(flowId, "rk-b3", "{\"reason\": \"x\"}"));
    answers.put("no reason", api.refund(flowId, "rk-b4", "{\"amount\": 5}"));
    answers.put("blank reason", api.refund(flowId, "rk-b5", "{\"amount\": 5, \"reason\": \" \"}"));
    answers.put(
        "long reason",
        api.refund(flowId, "rk-b6", "{\"amount\": 5, \"reason\": \"" + "r".repeat(201) + "\"}"));
    answers.put("no key", api.refund(flowId, null, 5, "x"));
    answers.put("malformed", api.refund(flowId, "rk-b7", "{\"amount\": "));
    answers.put("no body", api.send("POST", path, MERCHANT_KEY, "rk-b8", "{}"));
    answers.put("bad flow id", api.refund(-1, "rk-b9", 5, "x"));
    answers.put("no api key", api.send("POST", path, null, "rk-b10", "{\"amount\": 5}"));
    answers.put("operator key", api.send("POST", path, OPERATOR_KEY, "rk-b11", "{\"amount\": 5}"));

    assertThat(answers.get("zero").code()).isEqualTo("invalid_amount");
    assertThat(answers.get("negative").code()).isEqualTo("invalid_amount");
    assertThat(answers.get("no amount").code()).isEqualTo("invalid_amount");
    assertThat(answers.get("no reason").code()).isEqualTo("invalid_reason");
    assertThat(answers.get("blank reason").code()).isEqualTo("invalid_reason");
    assertThat(answers.get("long reason").code()).isEqualTo("invalid_reason");
    assertThat(answers.get("no key").code()).isEqualTo("idempotency_key_missing");
    assertThat(answers.get("malformed").code()).isEqualTo("malformed_json");
    assertThat(answers.get("no body").code()).isEqualTo("invalid_amount");
    assertThat(answers.get("bad flow id").status()).isEqualTo(404);
    assertThat(answers.get("no api key").status()).isEqualTo(401);
    assertThat(answers.get("operator key").status()).isEqualTo(403);
    answers.forEach((what, a) -> assertThat(a.status()).as("%s: %s", what, a).isBetween(400, 499));
    assertThat(refundRows()).isEqualTo(new RefundRows(0, 0));
    assertThat(api.wallet.refundRequests()).isEmpty();
  }

  @Test
  void aMerchantKeyInTheBatchKeysNamespaceIsRefusedAndWritesNothing() {
    long flowId = api.paidFlow(nextUser(), "refund-reserved", 990).number("flowId");

    // The very key a batch refund of this payment uses, and the same prefix in another case.
    Answer batchKey = api.refund(flowId, "refund-batch-" + flowId, 990, "cancelled");
    Answer upper = api.refund(flowId, "REFUND-BATCH-7", 10, "goodwill");

    for (Answer a : List.of(batchKey, upper)) {
      assertThat(a.status()).as("%s", a).isEqualTo(400);
      assertThat(a.code()).isEqualTo("idempotency_key_reserved");
      assertThat(a.text("message")).contains("refund-batch-");
    }
    assertThat(refundRows()).isEqualTo(new RefundRows(0, 0));
    assertThat(api.wallet.refundRequests()).isEmpty();
    // A key that only contains the words is the merchant's own.
    assertThat(api.refund(flowId, "my-refund-batch-1", 10, "goodwill").status()).isEqualTo(201);
  }

  @Test
  void theSameKeyReplaysTheSameRefundAndOtherParametersAreRefused() {
    long flowId = api.paidFlow(nextUser(), "refund-idem", 990).number("flowId");
    long otherFlow = api.paidFlow(nextUser(), "refund-idem-2", 990).number("flowId");

    Answer first = api.refund(flowId, "rk-same", 250, "late delivery");
    Answer replay = api.refund(flowId, "rk-same", 250, "late delivery");
    Answer otherAmount = api.refund(flowId, "rk-same", 251, "late delivery");
    Answer otherReason = api.refund(flowId, "rk-same", 250, "other");
    Answer elsewhere = api.refund(otherFlow, "rk-same", 250, "late delivery");

    assertThat(first.status()).isEqualTo(201);
    assertThat(replay.status()).as("%s", replay).isEqualTo(200);
    assertThat(replay.header("Idempotent-Replayed")).contains("true");
    assertThat(replay.number("refundId")).isEqualTo(first.number("refundId"));
    assertThat(replay.text("refundNo")).isEqualTo(first.text("refundNo"));
    for (Answer reused : List.of(otherAmount, otherReason, elsewhere)) {
      assertThat(reused.status()).as("%s", reused).isEqualTo(422);
      assertThat(reused.code()).isEqualTo("idempotency_key_reused");
    }
    assertThat(refundRows().refunds()).isEqualTo(1);
    assertThat(api.wallet.refundRequests()).hasSize(1);
  }

  @Test
  void aLostRefundResponseIsSettledInTheBackgroundWithoutASecondRefund()
      throws InterruptedException {
    long flowId = api.paidFlow(nextUser(), "refund-lost", 990).number("flowId");
    api.wallet.loseRefundResponses(1);

    Answer created = api.refund(flowId, "rk-lost", 990, "cancelled order");

    assertThat(created.status()).isEqualTo(201);
    assertThat(created.text("status")).isEqualTo("PROCESSING");
    assertThat(created.number("pollAfterMs")).isPositive();
    Answer settled = api.awaitRefund(created.number("refundId"), "SUCCESS", Duration.ofSeconds(20));
    assertThat(settled.text("refundNo")).isEqualTo(created.text("refundNo"));
    assertThat(
            api.wallet.ledger().stream()
                .filter(l -> l.kind() == LedgerEntry.Kind.REFUND)
                .filter(l -> l.orderNo().equals(created.text("refundNo"))))
        .hasSize(1);
  }

  @Test
  void concurrentRefundRequestsOnOneFlowNeverRefundMoreThanWasPaid() throws Exception {
    long flowId = api.paidFlow(nextUser(), "refund-storm", 990).number("flowId");
    int requests = 24;
    // 8 keys x 3 requests each, 300 apiece: 2400 asked for against 990 paid; three fit.
    CountDownLatch go = new CountDownLatch(1);
    List<Future<Answer>> futures = new ArrayList<>();
    for (int i = 0; i < requests; i++) {
      String key = "rk-storm-" + (i % 8);
      futures.add(
          clients.submit(
              () -> {
                go.await();
                return api.refund(flowId, key, 300, "storm");
              }));
    }
    go.countDown();
    List<Answer> answers = new ArrayList<>();
    for (Future<Answer> f : futures) {
      answers.add(f.get(60, TimeUnit.SECONDS));
    }

    Map<Integer, Long> byStatus =
        answers.stream().collect(Collectors.groupingBy(Answer::status, Collectors.counting()));
    assertThat(byStatus.keySet()).as("%s", answers).isSubsetOf(200, 201, 422);
    assertThat(byStatus.get(201)).isEqualTo(3);
    assertThat(
            answers.stream().filter(a -> a.status() == 422).map(Answer::code).distinct().toList())
        .containsOnly("refund_exceeds_payment");
    List<Long> accepted =
        answers.stream()
            .filter(a -> a.status() == 200 || a.status() == 201)
            .map(a -> a.number("refundId"))
            .distinct()
            .toList();
    assertThat(accepted).hasSize(3);
    // per key: one 201 and two replays of the same refund, or three refusals; never a mix
    for (int k = 0; k < 8; k++) {
      List<Answer> ofKey = new ArrayList<>();
      for (int i = k; i < requests; i += 8) {
        ofKey.add(answers.get(i));
      }
      List<Integer> statuses = ofKey.stream().map(Answer::status).sorted().toList();
      assertThat(statuses)
          .as("key %d: %s", k, ofKey)
          .isIn(List.of(200, 200, 201), List.of(422, 422, 422));
      if (statuses.get(0) == 200) {
        assertThat(ofKey.stream().map(a -> a.number("refundId")).distinct()).hasSize(1);
      }
    }
    for (long id : accepted) {
      api.awaitRefund(id, "SUCCESS", Duration.ofSeconds(20));
    }
    assertThat(RefundHttpService.count("SELECT COALESCE(SUM(amount), 0) FROM refund_order"))
        .isEqualTo(900);
  }

  /**
   * What the wallet saw: every refund number it executed, it executed once, and the money refunded
   * per trade never exceeds what was charged for it (over the whole class); every refund request of
   * this test carried the after-sales number of a refund row with the same trade and amount.
   */
  private static void assertWalletNeverRefundedANumberTwiceNorMoreThanCharged() {
    List<LedgerEntry> ledger = api.wallet.ledger();
    Map<String, Long> executions =
        ledger.stream()
            .filter(l -> l.kind() == LedgerEntry.Kind.REFUND)
            .collect(Collectors.groupingBy(LedgerEntry::orderNo, Collectors.counting()));
    assertThat(executions.values()).allMatch(n -> n == 1);
    Map<String, Long> charged =
        ledger.stream()
            .filter(l -> l.kind() == LedgerEntry.Kind.CHARGE)
            .collect(
                Collectors.groupingBy(
                    LedgerEntry::tradeOrderNo, Collectors.summingLong(LedgerEntry::amount)));
    Map<String, Long> refunded =
        ledger.stream()
            .filter(l -> l.kind() == LedgerEntry.Kind.REFUND)
            .collect(
                Collectors.groupingBy(
                    LedgerEntry::tradeOrderNo, Collectors.summingLong(LedgerEntry::amount)));
    refunded.forEach(
        (trade, amount) ->
            assertThat(amount)
                .as("refunded for %s", trade)
                .isLessThanOrEqualTo(charged.get(trade)));
    for (RefundRequest sent : api.wallet.refundRequests()) {
      assertThat(sent.refundOrderNo()).startsWith("a_" + sent.tradeOrderNo() + "_");
      assertThat(
              RefundHttpService.count(
                  "SELECT count(*) FROM refund_order WHERE refund_no = '"
                      + sent.refundOrderNo()
                      + "' AND trade_order_no = '"
                      + sent.tradeOrderNo()
                      + "' AND amount = "
                      + sent.amount()))
          .isEqualTo(1);
    }
  }
}
