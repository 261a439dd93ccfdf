package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.retention.RetentionKind;
import dev.clearway.core.retention.RetentionReport;
import dev.clearway.service.retention.RetentionJob;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A payment archived by the retention job is still found by the API (by id, by business key, its
 * history in the ops API), and its goal still answers with it: no second charge.
 */
class RetentionHttpTest {
  private static RunningApi api;

  @BeforeAll
  static void start() {
    api =
        RunningApi.start(
            "clearway.retention.enabled=false",
            "clearway.retention.flow-archive-age=1ms",
            "clearway.retention.idempotency-ttl=1ms");
    RunningApi.resetDatabase();
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @Test
  void anArchivedPaymentIsStillFoundAndItsGoalStillAnswersWithIt() throws Exception {
    RunningApi.Answer paid = api.pay("archive-1", RunningApi.Payment.of(801, "archive-goal"));
    assertThat(paid.clientStatus()).isEqualTo("BIZ_SUCCESS");
    long flowId = paid.flowId();
    Thread.sleep(20);

    RetentionReport report = api.bean(RetentionJob.class).runNow();

    assertThat(report.removed(RetentionKind.FLOW_ARCHIVE)).isEqualTo(1);
    assertThat(report.removed(RetentionKind.IDEMPOTENCY)).isEqualTo(1);
    assertThat(RunningApi.count("SELECT count(*) FROM pay_flow")).isZero();
    assertThat(RunningApi.count("SELECT count(*) FROM pay_flow_archive")).isEqualTo(1);

    RunningApi.Answer byId = api.flow(flowId);
    assertThat(byId.status()).isEqualTo(200);
    assertThat(byId.clientStatus()).isEqualTo("BIZ_SUCCESS");
    RunningApi.Answer byBizKey = api.get("/v1/payment-flows?bizKey=archive-goal").send();
    assertThat(byBizKey.json().get("flows").get(0).get("flowId").asLong()).isEqualTo(flowId);
    RunningApi.Answer detail =
        api.call("GET", "/ops/review/flows/" + flowId).bearer(RunningApi.OPERATOR_KEY).send();
    assertThat(detail.status()).isEqualTo(200);
    RunningApi.Answer history =
        api.call("GET", "/ops/review/flows/" + flowId + "/history")
            .bearer(RunningApi.OPERATOR_KEY)
            .send();
    assertThat(history.status()).isEqualTo(200);
    assertThat(history.raw().body()).contains("BIZ_SUCCESS").contains("WAIT_PAY");

    // The idempotency record expired, the archived success still answers the goal.
    RunningApi.Answer again = api.pay("archive-1", RunningApi.Payment.of(801, "archive-goal"));
    assertThat(again.flowId()).isEqualTo(flowId);
    assertThat(RunningApi.count("SELECT count(*) FROM pay_flow")).isZero();
    assertThat(api.wallet.charges(paid.json().get("tradeOrderNo").asString())).isEqualTo(1);

    String metrics =
        api.call("GET", "/actuator/prometheus").bearer(RunningApi.OPERATOR_KEY).send().raw().body();
    assertThat(metrics).contains("clearway_retention_rows_total{kind=\"flow_archive\"");
  }
}
