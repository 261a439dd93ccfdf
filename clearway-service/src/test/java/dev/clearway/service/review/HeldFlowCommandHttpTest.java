package dev.clearway.service.review;

import static dev.clearway.service.review.OpsRig.APPROVER_ALICE;
import static dev.clearway.service.review.OpsRig.APPROVER_BOB;
import static dev.clearway.service.review.OpsRig.MERCHANT;
import static dev.clearway.service.review.OpsRig.OPERATOR_ALICE;
import static dev.clearway.service.review.OpsRig.commandId;
import static dev.clearway.service.review.OpsRig.find;
import static dev.clearway.service.review.OpsRig.sql;
import static dev.clearway.service.review.OpsRig.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Flows a person holds, over real HTTP: a frozen flow takes each resolution the state machine
 * allows from its status and nothing else; an escalated flow is retried at once on RESUME.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class HeldFlowCommandHttpTest {
  private static OpsRig rig;

  @BeforeAll
  static void start() {
    rig = new OpsRig();
  }

  @AfterAll
  static void stop() {
    rig.close();
  }

  @BeforeEach
  void reset() throws Exception {
    OpsRig.reset();
  }

  private static String proposal(String kind) {
    return "{\"kind\":\""
        + kind
        + "\",\"ticket\":\"OPS-40\",\"reason\":\"contradiction checked\","
        + "\"evidence\":\"wallet statement line 12\"}";
  }

  private static HttpResponse<String> propose(PayFlow flow, String kind, String key)
      throws Exception {
    return rig.call("POST", "/ops/review/flows/" + flow.id() + "/commands", key, proposal(kind));
  }

  private static HttpResponse<String> approve(HttpResponse<String> proposed, String key)
      throws Exception {
    assertThat(proposed.statusCode()).as(proposed.body()).isEqualTo(201);
    return rig.call(
        "POST", "/ops/review/commands/" + commandId(proposed.body()) + "/approve", key, null);
  }

  @Test
  void aFrozenPayingFlowIsConfirmedPaidThroughItsNormalTransition() throws Exception {
    PayFlow flow = OpsRig.frozen(OpsRig.flowIn("paid", FlowStatus.PAYING));
    assertThat(flow.reviewState()).isEqualTo(ReviewState.FROZEN);
    HttpResponse<String> proposed = propose(flow, "CONFIRM_PAID", OPERATOR_ALICE);
    assertThat(approve(proposed, APPROVER_ALICE).body()).contains("same_person");
    assertThat(find(flow.id()).status()).isEqualTo(FlowStatus.PAYING);

    HttpResponse<String> approved =
        rig.call(
            "POST",
            "/ops/review/commands/" + commandId(proposed.body()) + "/approve",
            APPROVER_BOB,
            null);
    assertThat(approved.body()).contains("\"state\":\"APPLIED\"");
    assertThat(
            text(
                "SELECT from_status || '>' || to_status || ' ' || trigger_source || ' '"
                    + " || error_code FROM pay_flow_history WHERE flow_id = "
                    + flow.id()
                    + " AND trigger_source = 'MANUAL'"))
        .isEqualTo("PAYING>PAYED MANUAL CONFIRM_PAID");
    // Unfrozen and due: the engine carries on from PAYED (the business grants the goal).
    OpsRig.await(() -> find(flow.id()).isTerminal());
    assertThat(find(flow.id()).status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(find(flow.id()).reviewState()).isEqualTo(ReviewState.NONE);
  }

  @Test
  void aFrozenFlowTakesOnlyTheResolutionsItsStatusAllows() throws Exception {
    PayFlow paying = OpsRig.frozen(OpsRig.flowIn("unpaid", FlowStatus.PAYING));
    assertThat(approve(propose(paying, "CONFIRM_NOT_PAID", OPERATOR_ALICE), APPROVER_BOB).body())
        .contains("APPLIED");
    assertThat(find(paying.id()).status()).isEqualTo(FlowStatus.PAY_FAIL);

    PayFlow waiting = OpsRig.frozen(OpsRig.flowIn("wait"));
    // WAIT_PAY cannot be confirmed paid (no such edge): refused, nothing written.
    long before = find(waiting.id()).version();
    HttpResponse<String> illegal = propose(waiting, "CONFIRM_PAID", OPERATOR_ALICE);
    assertThat(illegal.statusCode()).isEqualTo(409);
    assertThat(illegal.body()).contains("\"code\":\"command_not_applicable\"", "WAIT_PAY");
    assertThat(find(waiting.id()).version()).isEqualTo(before);
    assertThat(approve(propose(waiting, "CLOSE_UNPAID", OPERATOR_ALICE), APPROVER_BOB).body())
        .contains("APPLIED");
    assertThat(find(waiting.id()).status()).isEqualTo(FlowStatus.CLOSED);

    PayFlow payed = OpsRig.frozen(OpsRig.flowIn("payed", FlowStatus.PAYING, FlowStatus.PAYED));
    for (String kind : new String[] {"CONFIRM_PAID", "CONFIRM_NOT_PAID", "CLOSE_UNPAID"}) {
      HttpResponse<String> refused = propose(payed, kind, OPERATOR_ALICE);
      assertThat(refused.statusCode()).as(kind).isEqualTo(409);
      assertThat(refused.body()).contains("command_not_applicable");
    }
    assertThat(text("SELECT count(*) FROM manual_command WHERE flow_id = " + payed.id()))
        .isEqualTo("0");

    // A flow the engine is still running is not a person's to settle.
    PayFlow running = OpsRig.flowIn("running", FlowStatus.PAYING);
    HttpResponse<String> notHeld = propose(running, "CONFIRM_PAID", OPERATOR_ALICE);
    assertThat(notHeld.statusCode()).isEqualTo(409);
    assertThat(notHeld.body()).contains("not under review");
    assertThat(find(running.id()).version()).isEqualTo(running.version());
    assertThat(propose(running, "CONFIRM_PAID", MERCHANT).statusCode()).isEqualTo(403);
  }

  @Test
  void anEscalatedFlowIsRetriedAtOnceOnResume() throws Exception {
    PayFlow flow = OpsRig.flowIn("escalated", FlowStatus.PAYING, FlowStatus.PAYED);
    // Retry budget spent: escalated, next retry at the escalated interval, an hour away.
    sql(
        "UPDATE pay_flow SET review_state = 'ESCALATED', review_reason = 'RETRY_BUDGET_SPENT',"
            + " next_retry_time = now() + "
            + TestSql.interval("1 hour")
            + ", lease_owner = NULL,"
            + " version = version + 1 WHERE id = "
            + flow.id());
    Instant asked = Instant.now();
    assertThat(approve(propose(flow, "RESUME", OPERATOR_ALICE), APPROVER_BOB).body())
        .contains("APPLIED");
    OpsRig.await(() -> find(flow.id()).isTerminal());
    PayFlow done = find(flow.id());
    assertThat(done.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(done.reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(Duration.between(asked, Instant.now())).isLessThan(Duration.ofSeconds(30));
  }
}
