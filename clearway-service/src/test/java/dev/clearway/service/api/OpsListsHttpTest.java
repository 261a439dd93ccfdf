package dev.clearway.service.api;

import static dev.clearway.service.api.RunningApi.APPROVER_KEY;
import static dev.clearway.service.api.RunningApi.OPERATOR_KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The ops lists over real HTTP on rows inserted with SQL: each answers {@code {items, nextCursor}}
 * with at most 100 rows, newest first, a cursor that walks every row of a list longer than a page
 * exactly once, 400 for a bad cursor or limit; operators and approvers see every merchant and each
 * row names its merchant; the review queue and the ABNORMAL refunds filter by merchant.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class OpsListsHttpTest {
  private static final int ROWS = 130;
  private static final String QUEUE = "/ops/review/flows";

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

  /**
   * 130 frozen PAYED flows (every 13th of merchant shop-b, the others of shop-a), each with an
   * ABNORMAL refund and a MANUAL late-charge check, none of them due for a worker.
   */
  @BeforeEach
  void rows() {
    RunningApi.resetDatabase();
    TestDatabase.get().truncate("manual_command", "manual_audit");
    RunningApi.insertFlows(
        """
        merchant_id, user_id, scene, biz_key, attempt_no, status, amount, currency,
        biz_deadline_time, next_retry_time, trade_order_no, refund_order_no, review_state,
        review_reason, created_at, updated_at""",
        """
        SELECT CASE WHEN g %% 13 = 0 THEN 'shop-b' ELSE 'shop-a' END, 7000 + g, 'renewal',
               CONCAT('ops-', g), 1, 'PAYED', 500, 'CNY', now() + %s,
               now() + %s, CONCAT('t_ops_', g), CONCAT('r_t_ops_', g), 'FROZEN',
               'BIZ_DONE_WITHOUT_ATTRIBUTION', now(), now()
          FROM %s
        """
            .formatted(
                TestSql.interval("1 hour"),
                TestSql.interval("1 day"),
                TestSql.series(1, ROWS, "g")));
    RunningApi.execute(
        """
        INSERT INTO refund_order
          (flow_id, merchant_id, seq, trade_order_no, refund_no, amount, currency, reason,
           requested_by, idem_key, request_hash, status, next_retry_time, last_error_code,
           created_at, updated_at)
        SELECT id, merchant_id, 1, trade_order_no, CONCAT('a_', trade_order_no, '_1'), 100, 'CNY',
               'damaged', merchant_id, CONCAT('k-', id), repeat('0', 64), 'ABNORMAL',
               now() + %1$s, 'WALLET_BUSY', now(), now()
          FROM pay_flow ORDER BY id;
        INSERT INTO late_charge_check
          (flow_id, merchant_id, trade_order_no, source, status, next_check_time, created_at,
           updated_at)
        SELECT id, merchant_id, trade_order_no, 'SWEEP', 'MANUAL', now() + %1$s,
               now(), now()
          FROM pay_flow ORDER BY id;
        """
            .formatted(TestSql.interval("1 day")));
  }

  @Test
  void theReviewQueuePagesNewestFirstThroughEveryMerchantAndFiltersByOne() {
    List<JsonNode> queue = Paging.all(api, OPERATOR_KEY, QUEUE);

    assertThat(queue).hasSize(ROWS);
    List<Long> ids = queue.stream().map(f -> f.get("flow").get("flowId").asLong()).toList();
    assertThat(ids).doesNotHaveDuplicates().isSortedAccordingTo((x, y) -> Long.compare(y, x));
    assertThat(queue)
        .allSatisfy(f -> assertThat(f.get("reviewState").asString()).isEqualTo("FROZEN"));
    assertThat(queue.stream().map(f -> f.get("merchantId").asString()).distinct())
        .containsExactlyInAnyOrder("shop-a", "shop-b");

    List<JsonNode> ofB = Paging.all(api, APPROVER_KEY, QUEUE + "?merchant=shop-b");
    assertThat(ofB)
        .hasSize(10)
        .allSatisfy(f -> assertThat(f.get("merchantId").asString()).isEqualTo("shop-b"));
    assertThat(Paging.all(api, OPERATOR_KEY, QUEUE + "?merchant=%20Shop-B")).hasSize(10);
    assertThat(Paging.all(api, OPERATOR_KEY, QUEUE + "?merchant=nobody")).isEmpty();
    List<JsonNode> small = Paging.all(api, OPERATOR_KEY, QUEUE + "?merchant=shop-a&limit=7");
    assertThat(small).hasSize(120);

    RunningApi.Answer badMerchant =
        api.call("GET", QUEUE + "?merchant=a%2Fb").bearer(OPERATOR_KEY).send();
    assertThat(badMerchant.status()).isEqualTo(400);
    assertThat(badMerchant.code()).isEqualTo("invalid_parameter");
    Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, QUEUE);
    Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, QUEUE + "?merchant=shop-a");
  }

  @Test
  void aFlowsTimelineCommandsAndAuditArePagesOfTheirOwn() {
    long flowId = RunningApi.count("SELECT min(id) FROM pay_flow WHERE merchant_id = 'shop-b'");
    RunningApi.execute(
        """
        INSERT INTO pay_flow_history
          (flow_id, biz_key, attempt_no, trade_order_no, refund_order_no, from_status, to_status,
           version, trigger_source, created_at)
        SELECT %1$d, 'ops', 1, 't', 'r', 'PAYING', 'PAYED', g, 'SCANNER', now()
          FROM %2$s;
        INSERT INTO manual_command
          (flow_id, target_id, kind, expected_status, expected_version, operator_id, ticket,
           reason, evidence, state, approver_id, result, created_at, decided_at)
        SELECT %1$d, %1$d, 'RESUME', 'PAYED', 0, 'olivia', CONCAT('OPS-', g), 'r', 'e', 'REJECTED',
               'aaron', 'no', now(), now()
          FROM %2$s;
        INSERT INTO manual_audit
          (command_id, flow_id, target_id, actor_id, role, action, detail, at)
        SELECT g, %1$d, %1$d, 'olivia', 'OPERATOR', 'PROPOSE', CONCAT('RESUME ticket OPS-', g),
               now()
          FROM %2$s;
        """
            .formatted(flowId, TestSql.series(1, ROWS, "g")));
    String flow = QUEUE + "/" + flowId;

    RunningApi.Answer detail = api.call("GET", flow).bearer(OPERATOR_KEY).send();
    assertThat(detail.status()).as("%s", detail).isEqualTo(200);
    JsonNode d = detail.json();
    assertThat(d.get("flow").get("merchantId").asString()).isEqualTo("shop-b");
    assertThat(d.get("flow").get("flow").get("flowId").asLong()).isEqualTo(flowId);
    for (String list : List.of("history", "commands", "audit")) {
      assertThat(d.get(list).get("items")).as(list).hasSize(100);
      assertThat(d.get(list).get("nextCursor").isNull()).as(list).isFalse();
    }
    assertThat(d.get("history").get("items").get(0).get("version").asLong()).isEqualTo(ROWS);

    List<JsonNode> history = Paging.all(api, OPERATOR_KEY, flow + "/history");
    assertThat(history).hasSize(ROWS);
    assertThat(Paging.longs(history, "version")).isSortedAccordingTo((x, y) -> Long.compare(y, x));
    assertThat(Paging.longs(history, "id")).doesNotHaveDuplicates();
    List<JsonNode> commands = Paging.all(api, APPROVER_KEY, flow + "/commands");
    assertThat(Paging.longs(commands, "id"))
        .hasSize(ROWS)
        .isSortedAccordingTo((x, y) -> Long.compare(y, x));
    List<JsonNode> audit = Paging.all(api, OPERATOR_KEY, flow + "/audit");
    assertThat(Paging.longs(audit, "id")).hasSize(ROWS).doesNotHaveDuplicates();
    assertThat(audit.get(0).get("detail").asString()).isEqualTo("RESUME ticket OPS-" + ROWS);

    for (String list : List.of("/history", "/commands", "/audit")) {
      Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, flow + list);
      RunningApi.Answer missing =
          api.call("GET", QUEUE + "/999999" + list).bearer(OPERATOR_KEY).send();
      assertThat(missing.status()).isEqualTo(404);
      assertThat(missing.code()).isEqualTo("flow_not_found");
    }
  }

  @Test
  void abnormalRefundsPageNewestFirstWithTheirMerchantAndFilterByOne() {
    String path = "/ops/console/abnormal-refunds";
    List<JsonNode> refunds = Paging.all(api, OPERATOR_KEY, path);

    assertThat(refunds).hasSize(ROWS);
    assertThat(Paging.longs(refunds, "refundId"))
        .doesNotHaveDuplicates()
        .isSortedAccordingTo((x, y) -> Long.compare(y, x));
    assertThat(refunds)
        .allSatisfy(r -> assertThat(r.get("merchantId").asString()).startsWith("shop-"));
    List<JsonNode> ofB = Paging.all(api, APPROVER_KEY, path + "?merchant=shop-b");
    assertThat(ofB)
        .hasSize(10)
        .allSatisfy(r -> assertThat(r.get("merchantId").asString()).isEqualTo("shop-b"));
    assertThat(Paging.all(api, OPERATOR_KEY, path + "?merchant=shop-a&limit=50")).hasSize(120);
    RunningApi.Answer badMerchant =
        api.call("GET", path + "?merchant=" + "m".repeat(65)).bearer(OPERATOR_KEY).send();
    assertThat(badMerchant.status()).isEqualTo(400);
    assertThat(badMerchant.code()).isEqualTo("invalid_parameter");
    Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, path);
  }

  @Test
  void transitionsAndManualLateChargesPageNewestFirstWithTheirMerchant() {
    RunningApi.execute(
        """
        INSERT INTO pay_flow_history
          (flow_id, biz_key, attempt_no, trade_order_no, refund_order_no, from_status, to_status,
           version, trigger_source, created_at)
        SELECT id, biz_key, 1, trade_order_no, refund_order_no, 'PAYING', 'PAYED', 2, 'SCANNER',
               now()
          FROM pay_flow ORDER BY id;
        """);
    List<JsonNode> transitions = Paging.all(api, OPERATOR_KEY, "/ops/console/transitions");
    assertThat(transitions).hasSize(ROWS);
    List<Long> historyIds =
        transitions.stream().map(t -> t.get("entry").get("id").asLong()).toList();
    assertThat(historyIds)
        .doesNotHaveDuplicates()
        .isSortedAccordingTo((x, y) -> Long.compare(y, x));
    assertThat(transitions)
        .allSatisfy(t -> assertThat(t.get("merchantId").asString()).startsWith("shop-"));
    Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, "/ops/console/transitions");

    List<JsonNode> manual =
        Paging.all(api, APPROVER_KEY, "/ops/late-charges", v -> v.get("manual"));
    assertThat(manual).hasSize(ROWS);
    assertThat(Paging.longs(manual, "checkId"))
        .doesNotHaveDuplicates()
        .isSortedAccordingTo((x, y) -> Long.compare(y, x));
    assertThat(manual.stream().map(c -> c.get("merchantId").asString()).distinct())
        .containsExactlyInAnyOrder("shop-a", "shop-b");
    JsonNode first = api.call("GET", "/ops/late-charges").bearer(OPERATOR_KEY).send().json();
    assertThat(first.get("byStatus").get("MANUAL").asLong()).isEqualTo(ROWS);
    Paging.refusesBadCursorAndLimit(api, OPERATOR_KEY, "/ops/late-charges");
  }
}
