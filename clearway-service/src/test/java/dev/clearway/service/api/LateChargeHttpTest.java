package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.signature.WebhookSignature;
import dev.clearway.store.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Late charges in the running service, over real HTTP: signed callbacks about a closed order that
 * was charged anyway leave one check (stored with the first callback) and one refund however often
 * they arrive; a charge no callback reports is found by the service's own sweep; both are listed
 * for operators.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class LateChargeHttpTest {
  private static final String SECRET = "whsec_test_late_charges";
  private static final long USER = 701;
  private static RunningApi api;

  @BeforeAll
  static void start() {
    api = RunningApi.start("clearway.callbacks.sim-secret=" + SECRET);
  }

  @AfterAll
  static void stop() {
    api.close();
  }

  @BeforeEach
  void reset() {
    RunningApi.resetDatabase();
    RunningApi.execute("TRUNCATE callback_inbox");
  }

  /**
   * A flow cancelled before any payment call (CLOSED), whose order the customer's wallet charged
   * anyway (a request the engine never saw). The test holds the creation lease, so the engine never
   * pays it.
   */
  private PayFlow closedButCharged(String bizKey) {
    Instant now = Instant.now();
    PayFlow created =
        api.bean(FlowStore.class)
            .createAttempt(
                new NewPayment(
                    GoalKey.ofDefaultMerchant(USER, "renewal", bizKey),
                    990,
                    "CNY",
                    now.plusSeconds(600)),
                new Lease("test-holder", now.plusSeconds(3_600)),
                now)
            .flow();
    api.wallet.pay(new ChargeRequest(created.tradeOrderNo(), USER, 990, "CNY"));
    RunningApi.Answer cancelled = api.post("/v1/payment-flows/" + created.id() + "/cancel").send();
    assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(200);
    assertThat(api.flow(created.id()).clientStatus()).isEqualTo("CLOSED");
    return created;
  }

  private static String event(String id, PayFlow flow) {
    return "{\"id\":\""
        + id
        + "\",\"type\":\"charge.succeeded\",\"tradeOrderNo\":\""
        + flow.tradeOrderNo()
        + "\"}";
  }

  private static RunningApi.Answer callback(String body) {
    return api.call("POST", "/v1/callbacks/sim")
        .contentType("application/json")
        .header(
            WebhookSignature.HEADER,
            WebhookSignature.sign(body.getBytes(StandardCharsets.UTF_8), Instant.now(), SECRET))
        .body(body)
        .send();
  }

  private static long checks(PayFlow flow, String where) {
    return RunningApi.count(
        "SELECT count(*) FROM late_charge_check WHERE flow_id = " + flow.id() + where);
  }

  private static void awaitRefunded(PayFlow flow) throws InterruptedException {
    Instant giveUp = Instant.now().plusSeconds(20);
    while (Instant.now().isBefore(giveUp)
        && (checks(flow, " AND status = 'REFUND_REQUESTED'") == 0
            || api.wallet.refunds(flow.tradeOrderNo()) == 0)) {
      Thread.sleep(50);
    }
    assertThat(checks(flow, " AND status = 'REFUND_REQUESTED'")).isEqualTo(1);
    assertThat(api.wallet.refunds(flow.tradeOrderNo())).isEqualTo(1);
  }

  @Test
  void duplicatedCallbacksLeaveOneCheckAndOneRefund() throws Exception {
    PayFlow flow = closedButCharged("late-http-1");

    RunningApi.Answer first = callback(event("evt_late_1", flow));
    assertThat(first.status()).as("%s", first).isEqualTo(200);
    // Stored with the callback, before the answer: a crash after the 2xx loses nothing.
    assertThat(checks(flow, " AND source = 'CALLBACK'")).isEqualTo(1);
    assertThat(callback(event("evt_late_1", flow)).json().get("duplicate").asBoolean()).isTrue();
    assertThat(callback(event("evt_late_2", flow)).status()).isEqualTo(200);

    awaitRefunded(flow);
    callback(event("evt_late_3", flow));
    Thread.sleep(300);
    assertThat(checks(flow, "")).isEqualTo(1);
    assertThat(RunningApi.count("SELECT count(*) FROM refund_order WHERE kind = 'LATE_CHARGE'"))
        .isEqualTo(1);
    assertThat(api.wallet.refunds(flow.tradeOrderNo())).isEqualTo(1);
    assertThat(api.flow(flow.id()).clientStatus()).as("never revived").isEqualTo("CLOSED");

    RunningApi.Answer ops =
        api.call("GET", "/ops/late-charges").bearer(RunningApi.OPERATOR_KEY).send();
    assertThat(ops.status()).isEqualTo(200);
    assertThat(ops.json().get("byStatus").get("REFUND_REQUESTED").asLong()).isEqualTo(1);
    assertThat(api.get("/ops/late-charges").send().status()).as("not for merchants").isEqualTo(403);
  }

  @Test
  void aChargeNoCallbackReportsIsFoundByTheServicesSweep() throws Exception {
    PayFlow flow = closedButCharged("late-http-2");

    awaitRefunded(flow);

    assertThat(checks(flow, " AND source = 'SWEEP'")).isEqualTo(1);
    assertThat(RunningApi.count("SELECT count(*) FROM callback_inbox")).isZero();
  }
}
