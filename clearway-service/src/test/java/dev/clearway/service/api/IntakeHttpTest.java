package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The intake switch over real HTTP on two nodes of one database: closing it on one node closes
 * intake on both, refusals write nothing, everything on existing flows goes on, and every change is
 * audited.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class IntakeHttpTest {
  private static RunningApi nodeA;
  private static RunningApi nodeB;

  @BeforeAll
  static void start() {
    nodeA = RunningApi.start("clearway.instance-id=intake-a");
    nodeB = RunningApi.start("clearway.instance-id=intake-b");
  }

  @AfterAll
  static void stop() {
    nodeB.close();
    nodeA.close();
  }

  @BeforeEach
  @AfterEach
  void reopen() throws InterruptedException {
    RunningApi.resetDatabase();
    RunningApi.execute("UPDATE intake_switch SET open = TRUE, reason = NULL, changed_by = NULL");
    RunningApi.execute("TRUNCATE intake_audit");
    // Each node may still hold the previous test's switch for one cache period (1 s).
    Thread.sleep(1_100);
  }

  private static RunningApi.Answer intake(RunningApi node, String key, String json) {
    return node.call("POST", "/ops/intake")
        .bearer(key)
        .contentType("application/json")
        .body(json)
        .send();
  }

  @Test
  void closingOnOneNodeClosesIntakeOnEveryNodeAndWritesNothing() throws Exception {
    RunningApi.Answer before = nodeA.pay("intake-before", RunningApi.Payment.of(51_001L, "in-1"));
    assertThat(before.status()).as(before.body()).isEqualTo(201);
    long existing = before.flowId();

    RunningApi.Answer closed =
        intake(nodeA, RunningApi.OPERATOR_KEY, "{\"open\":false,\"reason\":\"PSP incident\"}");
    assertThat(closed.status()).as(closed.body()).isEqualTo(200);
    assertThat(closed.json().get("open").asBoolean()).isFalse();
    assertThat(closed.text("changedBy")).isEqualTo("olivia");

    // Every node reads the switch at most once a second (clearway.intake.cache, default 1 s).
    Thread.sleep(1_100);
    RunningApi.Rows rows = RunningApi.rows();
    RunningApi.Answer refusedOnB =
        nodeB.pay("intake-after", RunningApi.Payment.of(51_002L, "in-2"));
    assertThat(refusedOnB.status()).as(refusedOnB.body()).isEqualTo(503);
    assertThat(refusedOnB.code()).isEqualTo("intake_closed");
    assertThat(refusedOnB.text("message")).isNotBlank();
    RunningApi.Answer refusedOnA =
        nodeA.pay("intake-after-a", RunningApi.Payment.of(51_003L, "in-3"));
    assertThat(refusedOnA.status()).isEqualTo(503);
    assertThat(refusedOnA.code()).isEqualTo("intake_closed");
    assertThat(RunningApi.rows()).isEqualTo(rows);

    // Existing flows go on: read and cancel on the other node while intake is closed.
    RunningApi.Answer read = nodeB.flow(existing);
    assertThat(read.status()).isEqualTo(200);
    RunningApi.Answer state =
        nodeB.call("GET", "/ops/intake").bearer(RunningApi.OPERATOR_KEY).send();
    assertThat(state.status()).isEqualTo(200);
    assertThat(state.json().get("open").asBoolean()).isFalse();
    assertThat(state.text("reason")).isEqualTo("PSP incident");

    RunningApi.Answer reopened = intake(nodeB, RunningApi.APPROVER_KEY, "{\"open\":true}");
    assertThat(reopened.status()).as(reopened.body()).isEqualTo(200);
    RunningApi.Answer accepted =
        awaitStatus(nodeA, "intake-reopened", RunningApi.Payment.of(51_004L, "in-4"), 201);
    assertThat(accepted.flowId()).isPositive();

    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM intake_audit WHERE open = FALSE AND changed_by = 'olivia'"
                    + " AND reason = 'PSP incident'"))
        .isEqualTo(1);
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM intake_audit WHERE open = TRUE AND changed_by = 'aaron'"))
        .isEqualTo(1);
  }

  @Test
  void cancelsAndWorkersGoOnWhileIntakeIsClosed() throws Exception {
    GatedWallet.Gate gate = nodeA.wallet.gate(51_010L);
    RunningApi.Answer created = nodeA.pay("intake-live", RunningApi.Payment.of(51_010L, "in-10"));
    assertThat(created.status()).as(created.body()).isIn(200, 201);
    gate.awaitEntered();
    GatedWallet.Gate cancelGate = nodeA.wallet.gate(51_012L);
    RunningApi.Answer toCancel =
        nodeA.pay("intake-cancel", RunningApi.Payment.of(51_012L, "in-12"));
    cancelGate.awaitEntered();
    assertThat(
            intake(nodeA, RunningApi.OPERATOR_KEY, "{\"open\":false,\"reason\":\"drill\"}")
                .status())
        .isEqualTo(200);
    Thread.sleep(1_100);

    RunningApi.Answer cancel =
        nodeB.post("/v1/payment-flows/" + toCancel.flowId() + "/cancel").send();
    // The cancel is decided on the flow (it may have been charged meanwhile), never by intake.
    assertThat(cancel.status()).as(cancel.body()).isIn(200, 409);
    if (cancel.status() == 409) {
      assertThat(cancel.code()).isEqualTo("cancel_not_possible");
    }
    gate.release();
    cancelGate.release();

    // The worker still converges the flow that exists.
    nodeB.awaitStatus(created.flowId(), "BIZ_SUCCESS", Duration.ofSeconds(20));
    RunningApi.Answer other = nodeA.pay("intake-other", RunningApi.Payment.of(51_011L, "in-11"));
    assertThat(other.code()).isEqualTo("intake_closed");
  }

  @Test
  void onlyOperatorsChangeTheSwitchAndClosingNeedsAReason() {
    assertThat(intake(nodeA, RunningApi.MERCHANT_KEY, "{\"open\":false,\"reason\":\"x\"}").status())
        .isEqualTo(403);
    assertThat(nodeA.call("GET", "/ops/intake").send().status()).isEqualTo(401);
    RunningApi.Answer noReason = intake(nodeA, RunningApi.OPERATOR_KEY, "{\"open\":false}");
    assertThat(noReason.status()).isEqualTo(400);
    assertThat(noReason.code()).isEqualTo("invalid_parameter");
    RunningApi.Answer noState = intake(nodeA, RunningApi.OPERATOR_KEY, "{\"reason\":\"x\"}");
    assertThat(noState.status()).isEqualTo(400);
    assertThat(RunningApi.count("SELECT count(*) FROM intake_audit")).isZero();
    RunningApi.Answer state =
        nodeA.call("GET", "/ops/intake").bearer(RunningApi.OPERATOR_KEY).send();
    assertThat(state.json().get("open").asBoolean()).isTrue();
  }

  private static RunningApi.Answer awaitStatus(
      RunningApi node, String key, RunningApi.Payment payment, int status) throws Exception {
    Instant giveUp = Instant.now().plusSeconds(5);
    RunningApi.Answer last = node.pay(key, payment);
    while (last.status() != status && Instant.now().isBefore(giveUp)) {
      Thread.sleep(100);
      last = node.pay(key, payment);
    }
    assertThat(last.status()).as(last.body()).isEqualTo(status);
    return last;
  }
}
