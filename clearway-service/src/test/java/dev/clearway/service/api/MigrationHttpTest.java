package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The gray migration over real HTTP, with the legacy payment store as a table in the embedded
 * PostgreSQL read by the configured query: hand-backs that name the legacy reference and write
 * nothing, the rollout, the same routing for payment, query and cancel, the roll-back that closes
 * only new-payment intake, a probe that cannot answer, and the hand-back metric.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class MigrationHttpTest {
  static final String QUERY =
      "SELECT order_no FROM legacy_payment WHERE merchant = :merchant AND user_id = :userId"
          + " AND scene = :scene AND biz_key = :bizKey AND status IN ('CREATED', 'PAYING')";

  private static RunningApi node;

  @BeforeAll
  static void start() {
    RunningApi.execute(
        "CREATE TABLE IF NOT EXISTS legacy_payment (order_no VARCHAR(64) PRIMARY KEY,"
            + " merchant VARCHAR(64) NOT NULL, user_id BIGINT NOT NULL, scene VARCHAR(64) NOT NULL,"
            + " biz_key VARCHAR(160) NOT NULL, status VARCHAR(16) NOT NULL)");
    node =
        RunningApi.start(
            "clearway.instance-id=migration-a",
            "clearway.migration.enabled=true",
            "clearway.migration.rollout-basis-points=0",
            "clearway.migration.allow=default:61001,default:61003,default:61004,default:61005",
            "clearway.migration.legacy.query=" + QUERY);
  }

  @AfterAll
  static void stop() {
    node.close();
  }

  @BeforeEach
  void reset() throws InterruptedException {
    RunningApi.resetDatabase();
    RunningApi.execute("TRUNCATE legacy_payment");
    RunningApi.execute("UPDATE migration_switch SET rolled_back = FALSE");
    RunningApi.execute("TRUNCATE migration_audit");
    Thread.sleep(1_100);
  }

  /** Inserts the legacy order, or moves an existing one to {@code status}. */
  private static void legacy(String orderNo, long user, String bizKey, String status) {
    if (RunningApi.count("SELECT count(*) FROM legacy_payment WHERE order_no = '" + orderNo + "'")
        > 0) {
      RunningApi.execute(
          "UPDATE legacy_payment SET status = '" + status + "' WHERE order_no = '" + orderNo + "'");
      return;
    }
    RunningApi.execute(
        "INSERT INTO legacy_payment VALUES ('"
            + orderNo
            + "', 'default', "
            + user
            + ", 'renewal', '"
            + bizKey
            + "', '"
            + status
            + "')");
  }

  private static RunningApi.Answer goal(RunningApi api, long user, String bizKey) {
    return api.get("/v1/goals?userId=" + user + "&scene=renewal&bizKey=" + bizKey).send();
  }

  private static RunningApi.Answer cancelGoal(RunningApi api, long user, String bizKey) {
    return api.post("/v1/goals/cancel")
        .body("{\"userId\":" + user + ",\"scene\":\"renewal\",\"bizKey\":\"" + bizKey + "\"}")
        .send();
  }

  private static double metric(RunningApi api, String series) {
    String body =
        api.call("GET", "/actuator/prometheus").bearer(RunningApi.OPERATOR_KEY).send().body();
    Matcher m =
        Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(body);
    assertThat(m.find()).as("series %s in %s", series, body).isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aGoalInFlightOnTheLegacyPathIsHandedBackForPaymentQueryAndCancelAndNothingIsWritten() {
    legacy("LP-61001", 61001, "lg-1", "PAYING");
    String handBacks = "clearway_migration_handbacks_total{reason=\"legacy_store\"}";
    double before = metric(node, handBacks);
    RunningApi.Rows rows = RunningApi.rows();

    RunningApi.Answer paid = node.pay("mig-1", RunningApi.Payment.of(61001, "lg-1"));
    assertThat(paid.status()).as(paid.body()).isEqualTo(409);
    assertThat(paid.code()).isEqualTo("legacy_in_flight");
    assertThat(paid.text("legacyReference")).isEqualTo("LP-61001");
    RunningApi.Answer read = goal(node, 61001, "lg-1");
    assertThat(read.status()).isEqualTo(409);
    assertThat(read.text("legacyReference")).isEqualTo("LP-61001");
    RunningApi.Answer cancel = cancelGoal(node, 61001, "lg-1");
    assertThat(cancel.status()).isEqualTo(409);
    assertThat(cancel.code()).isEqualTo("legacy_in_flight");
    assertThat(RunningApi.rows()).isEqualTo(rows);
    assertThat(metric(node, handBacks) - before).isEqualTo(3.0);

    // The legacy payment failed: the goal is clear, and the same key now creates the attempt.
    legacy("LP-61001", 61001, "lg-1", "FAILED");
    RunningApi.Answer retried = node.pay("mig-1", RunningApi.Payment.of(61001, "lg-1"));
    assertThat(retried.status()).as(retried.body()).isEqualTo(201);
    RunningApi.Answer found = goal(node, 61001, "lg-1");
    assertThat(found.status()).as(found.body()).isEqualTo(200);
    assertThat(found.flowId()).isEqualTo(retried.flowId());
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM pay_flow WHERE merchant_id = 'default' AND user_id = 61001"))
        .isEqualTo(1);
  }

  @Test
  void aUserOutsideTheRolloutStaysOnTheLegacyPath() {
    double before = metric(node, "clearway_migration_handbacks_total{reason=\"not_in_rollout\"}");
    RunningApi.Rows rows = RunningApi.rows();
    RunningApi.Answer paid = node.pay("mig-2", RunningApi.Payment.of(61002, "lg-2"));
    assertThat(paid.status()).as(paid.body()).isEqualTo(409);
    assertThat(paid.code()).isEqualTo("legacy_route");
    assertThat(paid.json().has("legacyReference")).isFalse();
    assertThat(goal(node, 61002, "lg-2").code()).isEqualTo("legacy_route");
    assertThat(RunningApi.rows()).isEqualTo(rows);
    assertThat(
            metric(node, "clearway_migration_handbacks_total{reason=\"not_in_rollout\"}") - before)
        .isEqualTo(2.0);
    // A user in the rollout with nothing on the legacy path: Clearway, and no such goal yet.
    assertThat(goal(node, 61005, "lg-5").code()).isEqualTo("flow_not_found");
  }

  @Test
  void rollingBackClosesOnlyNewPaymentIntakeWhileLiveAttemptsGoOn() throws Exception {
    GatedWallet.Gate gate = node.wallet.gate(61003);
    RunningApi.Answer live = node.pay("mig-live", RunningApi.Payment.of(61003, "lg-3"));
    assertThat(live.status()).as(live.body()).isIn(200, 201);
    gate.awaitEntered();

    RunningApi.Answer rolledBack =
        node.call("POST", "/ops/migration")
            .bearer(RunningApi.OPERATOR_KEY)
            .contentType("application/json")
            .body("{\"rolledBack\":true,\"reason\":\"legacy drill\"}")
            .send();
    assertThat(rolledBack.status()).as(rolledBack.body()).isEqualTo(200);
    RunningApi.Answer fresh = node.pay("mig-new", RunningApi.Payment.of(61004, "lg-4"));
    assertThat(fresh.status()).as(fresh.body()).isEqualTo(409);
    assertThat(fresh.code()).isEqualTo("legacy_route");

    // The live attempt stays with Clearway: replayed under a new key, read and converged.
    RunningApi.Answer replay = node.pay("mig-live-2", RunningApi.Payment.of(61003, "lg-3"));
    assertThat(replay.status()).as(replay.body()).isEqualTo(200);
    assertThat(replay.flowId()).isEqualTo(live.flowId());
    assertThat(goal(node, 61003, "lg-3").flowId()).isEqualTo(live.flowId());
    gate.release();
    node.awaitStatus(live.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(20));

    RunningApi.Answer resumed =
        node.call("POST", "/ops/migration")
            .bearer(RunningApi.APPROVER_KEY)
            .contentType("application/json")
            .body("{\"rolledBack\":false,\"reason\":\"drill over\"}")
            .send();
    assertThat(resumed.status()).isEqualTo(200);
    assertThat(node.pay("mig-new", RunningApi.Payment.of(61004, "lg-4")).status()).isEqualTo(201);
    assertThat(RunningApi.count("SELECT count(*) FROM migration_audit")).isEqualTo(2);
    assertThat(
            node.call("POST", "/ops/migration")
                .bearer(RunningApi.MERCHANT_KEY)
                .contentType("application/json")
                .body("{\"rolledBack\":true,\"reason\":\"x\"}")
                .send()
                .status())
        .isEqualTo(403);
  }

  @Test
  void aLegacyStoreThatCannotAnswerCreatesNothingAndAsksForARetry() {
    RunningApi.Rows rows = RunningApi.rows();
    String unknown = "clearway_migration_unknown_total{probe=\"legacy_store\"}";
    double before = metric(node, unknown);
    // The legacy store's query fails (its table is gone for a while).
    RunningApi.execute("ALTER TABLE legacy_payment RENAME TO legacy_payment_away");
    try {
      RunningApi.Answer paid = node.pay("mig-unknown", RunningApi.Payment.of(61005, "lg-9"));
      assertThat(paid.status()).as(paid.body()).isEqualTo(503);
      assertThat(paid.code()).isEqualTo("legacy_unknown");
      assertThat(paid.header("Retry-After")).isPresent();
      assertThat(goal(node, 61005, "lg-9").code()).isEqualTo("legacy_unknown");
    } finally {
      RunningApi.execute("ALTER TABLE legacy_payment_away RENAME TO legacy_payment");
    }
    assertThat(RunningApi.rows()).isEqualTo(rows);
    assertThat(metric(node, unknown) - before).isEqualTo(2.0);
    // Readable again: the retry with the same key creates the attempt.
    assertThat(node.pay("mig-unknown", RunningApi.Payment.of(61005, "lg-9")).status())
        .isEqualTo(201);
  }
}
