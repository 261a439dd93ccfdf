package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.signature.WebhookSignature;
import dev.clearway.store.testing.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Cancel and callbacks over real HTTP: a cancel while the charge is unknown ends REFUNDED when the
 * charge lands; a confirmed charge refuses the cancel; callbacks are verified, stored once,
 * acknowledged, and never change a flow by themselves.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class CancelAndCallbackHttpTest {
  private static final String SECRET = "whsec_test_cancel_callbacks";
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

  @Test
  void aCancelWhileTheChargeIsUnknownEndsRefundedWhenTheChargeLands() throws Exception {
    GatedWallet.Gate gate = api.wallet.gate(601);
    RunningApi.Answer created = api.pay("cancel-1", RunningApi.Payment.of(601, "cancel-goal"));
    assertThat(created.clientStatus()).isEqualTo("PROCESSING");
    gate.awaitEntered();

    RunningApi.Answer cancelled =
        api.post("/v1/payment-flows/" + created.flowId() + "/cancel").send();
    assertThat(cancelled.status()).as("%s", cancelled).isEqualTo(200);
    assertThat(cancelled.json().get("cancelRequested").asBoolean()).isTrue();

    gate.release();
    RunningApi.Answer end = api.awaitStatus(created.flowId(), "REFUNDED", Duration.ofSeconds(15));
    String trade = end.json().get("tradeOrderNo").asString();
    assertThat(api.wallet.charges(trade)).isEqualTo(1);
    assertThat(api.business.grants()).noneMatch(g -> g.goal().bizKey().equals("cancel-goal"));
  }

  @Test
  void aConfirmedChargeRefusesTheCancelAndAnUnknownFlowIsNotFound() {
    RunningApi.Answer paid = api.pay("cancel-2", RunningApi.Payment.of(602, "paid-goal"));
    assertThat(paid.clientStatus()).isEqualTo("BIZ_SUCCESS");

    RunningApi.Answer refused = api.post("/v1/payment-flows/" + paid.flowId() + "/cancel").send();
    assertThat(refused.status()).isEqualTo(409);
    assertThat(refused.code()).isEqualTo("cancel_not_possible");
    assertThat(api.flow(paid.flowId()).clientStatus()).isEqualTo("BIZ_SUCCESS");

    RunningApi.Answer missing = api.post("/v1/payment-flows/99999/cancel").send();
    assertThat(missing.status()).isEqualTo(404);
    assertThat(missing.code()).isEqualTo("flow_not_found");
  }

  @Test
  void callbacksAreVerifiedStoredOnceAndOnlyWakeTheAdvancer() {
    RunningApi.Answer paid = api.pay("cb-1", RunningApi.Payment.of(603, "cb-goal"));
    String trade = paid.json().get("tradeOrderNo").asString();
    String event =
        "{\"id\":\"evt_1\",\"type\":\"charge.succeeded\",\"tradeOrderNo\":\"" + trade + "\"}";

    RunningApi.Answer first = callback(event, sign(event, Instant.now(), SECRET));
    assertThat(first.status()).as("%s", first).isEqualTo(200);
    assertThat(first.json().get("duplicate").asBoolean()).isFalse();
    RunningApi.Answer replay = callback(event, sign(event, Instant.now(), SECRET));
    assertThat(replay.status()).isEqualTo(200);
    assertThat(replay.json().get("duplicate").asBoolean()).isTrue();
    assertThat(RunningApi.count("SELECT count(*) FROM callback_inbox")).isEqualTo(1);

    assertThat(callback(event, sign(event, Instant.now(), "wrong-secret")).status()).isEqualTo(401);
    RunningApi.Answer stale = callback(event, sign(event, Instant.now().minusSeconds(301), SECRET));
    assertThat(stale.status()).isEqualTo(400);
    assertThat(stale.code()).isEqualTo("stale_timestamp");
    assertThat(callback(event, "t=nonsense").code()).isEqualTo("malformed_signature");
    String broken = "{\"id\":";
    assertThat(callback(broken, sign(broken, Instant.now(), SECRET)).code())
        .isEqualTo("malformed_event");
    assertThat(RunningApi.count("SELECT count(*) FROM callback_inbox")).isEqualTo(1);

    String unknown =
        "{\"id\":\"evt_2\",\"type\":\"charge.succeeded\",\"tradeOrderNo\":\"t_nobody_1\"}";
    RunningApi.Answer ignored = callback(unknown, sign(unknown, Instant.now(), SECRET));
    assertThat(ignored.status()).isEqualTo(200);
    assertThat(
            RunningApi.count("SELECT count(*) FROM callback_inbox WHERE outcome = 'UNKNOWN_ORDER'"))
        .isEqualTo(1);

    // A "failed" event for a paid order changes nothing: callbacks never write flow state.
    String lie = "{\"id\":\"evt_3\",\"type\":\"charge.failed\",\"tradeOrderNo\":\"" + trade + "\"}";
    assertThat(callback(lie, sign(lie, Instant.now(), SECRET)).status()).isEqualTo(200);
    assertThat(api.flow(paid.flowId()).clientStatus()).isEqualTo("BIZ_SUCCESS");
  }

  private static String sign(String body, Instant at, String secret) {
    return WebhookSignature.sign(body.getBytes(StandardCharsets.UTF_8), at, secret);
  }

  private static RunningApi.Answer callback(String body, String signature) {
    return api.call("POST", "/v1/callbacks/sim")
        .contentType("application/json")
        .header(WebhookSignature.HEADER, signature)
        .body(body)
        .send();
  }
}
