package dev.clearway.service.review;

import static dev.clearway.service.review.OpsRig.APPROVER_ALICE;
import static dev.clearway.service.review.OpsRig.APPROVER_BOB;
import static dev.clearway.service.review.OpsRig.MERCHANT;
import static dev.clearway.service.review.OpsRig.OPERATOR_ALICE;
import static dev.clearway.service.review.OpsRig.commandId;
import static dev.clearway.service.review.OpsRig.sql;
import static dev.clearway.service.review.OpsRig.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.service.api.OutputCapture;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Commands on ABNORMAL refund orders, attempts whose result cannot be known, and compensations
 * waiting for a person, over real HTTP: maker/checker by name, the effect through each target's
 * state machine, a stable code and no write for anything else.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class OpsCommandHttpTest {
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

  private static String proposal(String kind, long targetId, String evidence) {
    return "{\"kind\":\""
        + kind
        + "\",\"targetId\":"
        + targetId
        + ",\"ticket\":\"OPS-31\",\"reason\":\"checked with the PSP\",\"evidence\":\""
        + evidence
        + "\"}";
  }

  /** Alice proposes, Bob approves: the approval's answer. */
  private static HttpResponse<String> proposeAndApprove(String kind, long targetId)
      throws Exception {
    HttpResponse<String> proposed =
        rig.call("POST", "/ops/commands", OPERATOR_ALICE, proposal(kind, targetId, "psp ref re_9"));
    assertThat(proposed.statusCode()).as(proposed.body()).isEqualTo(201);
    long id = commandId(proposed.body());
    return rig.call("POST", "/ops/commands/" + id + "/approve", APPROVER_BOB, null);
  }

  /** A BIZ_SUCCESS flow, charged at the wallet, with one ABNORMAL refund order; its id. */
  private static long abnormalRefund(String bizKey) throws Exception {
    PayFlow flow =
        OpsRig.flowIn(bizKey, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);
    rig.wallet.pay(new ChargeRequest(flow.tradeOrderNo(), 42, 700, "CNY"));
    sql(
        "INSERT INTO refund_order (flow_id, merchant_id, seq, trade_order_no, refund_no, amount,"
            + " currency, reason, requested_by, idem_key, request_hash, status, next_retry_time,"
            + " last_error_code, created_at, updated_at) VALUES ("
            + flow.id()
            + ", '"
            + flow.goal().merchant()
            + "', 1, '"
            + flow.tradeOrderNo()
            + "', 'a_"
            + flow.tradeOrderNo()
            + "_1', 300, 'CNY', 'damaged', 'm', 'k-"
            + bizKey
            + "', repeat('0', 64), 'ABNORMAL', now() + interval '1 hour', 'WALLET_BUSY', now(),"
            + " now())");
    return Long.parseLong(text("SELECT max(id) FROM refund_order"));
  }

  private static String refund(long id, String column) throws Exception {
    return text("SELECT " + column + " FROM refund_order WHERE id = " + id);
  }

  @Test
  void anAbnormalRefundIsConfirmedOnlyOnceAnotherPersonApproves() throws Exception {
    try (OutputCapture output = new OutputCapture()) {
      long id = abnormalRefund("conf");
      HttpResponse<String> proposed =
          rig.call(
              "POST",
              "/ops/commands",
              OPERATOR_ALICE,
              proposal("CONFIRM_REFUNDED", id, "psp refund re_77"));
      assertThat(proposed.statusCode()).isEqualTo(201);
      assertThat(proposed.body()).contains("\"targetKind\":\"REFUND_ORDER\"", "PROPOSED");
      long cmd = commandId(proposed.body());
      assertThat(refund(id, "status")).isEqualTo("ABNORMAL");

      // The proposer, with her approver key: refused; an operator key cannot approve at all.
      HttpResponse<String> self =
          rig.call("POST", "/ops/commands/" + cmd + "/approve", APPROVER_ALICE, null);
      assertThat(self.statusCode()).isEqualTo(409);
      assertThat(self.body()).contains("same_person");
      assertThat(
              rig.call("POST", "/ops/commands/" + cmd + "/approve", OPERATOR_ALICE, null)
                  .statusCode())
          .isEqualTo(403);
      assertThat(refund(id, "status")).isEqualTo("ABNORMAL");

      HttpResponse<String> approved =
          rig.call("POST", "/ops/commands/" + cmd + "/approve", APPROVER_BOB, null);
      assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
      assertThat(approved.body()).contains("\"state\":\"APPLIED\"", "\"approverId\":\"bob\"");
      assertThat(refund(id, "status")).isEqualTo("SUCCESS");
      assertThat(
              text(
                  "SELECT from_status || '>' || to_status || ' ' || trigger_source"
                      + " FROM refund_order_history WHERE refund_id = "
                      + id))
          .isEqualTo("ABNORMAL>SUCCESS MANUAL");
      assertThat(
              text("SELECT count(*) FROM outbox_event WHERE event_type = 'OrderRefundSucceeded'"))
          .isEqualTo("1");
      String audit =
          text(
              "SELECT "
                  + TestSql.stringAgg("actor_id || ' ' || action", "; ", "id")
                  + " FROM manual_audit"
                  + " WHERE target_kind = 'REFUND_ORDER' AND target_id = "
                  + id);
      assertThat(audit).isEqualTo("alice PROPOSE; bob APPROVE");
      for (String key : new String[] {OPERATOR_ALICE, APPROVER_ALICE, APPROVER_BOB}) {
        assertThat(audit).doesNotContain(key);
        assertThat(output.text()).doesNotContain(key);
      }

      // Now final: another command is refused with a stable code, and nothing is written.
      HttpResponse<String> again =
          rig.call("POST", "/ops/commands", OPERATOR_ALICE, proposal("CLOSE_REFUND", id, "x"));
      assertThat(again.statusCode()).isEqualTo(409);
      assertThat(again.body()).contains("\"code\":\"refund_not_abnormal\"");
      assertThat(text("SELECT count(*) FROM manual_command")).isEqualTo("1");
    }
  }

  @Test
  void aRetrySendsTheSameRefundNumberNowAndACloseEndsTheRefundFail() throws Exception {
    long retried = abnormalRefund("retry");
    String refundNo = refund(retried, "refund_no");
    assertThat(proposeAndApprove("RETRY_REFUND", retried).body()).contains("APPLIED");
    // Due now instead of in an hour: the wallet has no record of it, so the same number is sent.
    OpsRig.await(() -> "SUCCESS".equals(quiet(() -> refund(retried, "status"))));
    assertThat(refund(retried, "status")).isEqualTo("SUCCESS");
    assertThat(rig.wallet.ledger()).filteredOn(e -> e.orderNo().equals(refundNo)).hasSize(1);
    assertThat(refund(retried, "refund_no")).isEqualTo(refundNo);

    long closed = abnormalRefund("close");
    HttpResponse<String> approved = proposeAndApprove("CLOSE_REFUND", closed);
    assertThat(approved.body()).contains("APPLIED", "\"result\":\"FAIL\"");
    assertThat(refund(closed, "status")).isEqualTo("FAIL");
    assertThat(refund(closed, "last_error_code")).isEqualTo("CLOSE_REFUND");
  }

  @Test
  void anApprovalOfATargetThatMovedIsRefusedAndWritesNothing() throws Exception {
    long id = abnormalRefund("stale");
    long cmd =
        commandId(
            rig.call(
                    "POST",
                    "/ops/commands",
                    OPERATOR_ALICE,
                    proposal("CONFIRM_REFUNDED", id, "psp refund re_1"))
                .body());
    // A second open proposal on the same target is refused.
    HttpResponse<String> second =
        rig.call("POST", "/ops/commands", OPERATOR_ALICE, proposal("CLOSE_REFUND", id, "x"));
    assertThat(second.statusCode()).isEqualTo(409);
    assertThat(second.body()).contains("command_already_open");
    // The engine moved the refund meanwhile (a query: the version moved, the status did not).
    sql("UPDATE refund_order SET version = version + 1, retry_count = 3 WHERE id = " + id);

    HttpResponse<String> approved =
        rig.call("POST", "/ops/commands/" + cmd + "/approve", APPROVER_BOB, null);
    assertThat(approved.statusCode()).isEqualTo(409);
    assertThat(approved.body()).contains("\"code\":\"stale_target\"");
    assertThat(refund(id, "status")).isEqualTo("ABNORMAL");
    assertThat(text("SELECT state FROM manual_command WHERE id = " + cmd)).isEqualTo("PROPOSED");
    assertThat(text("SELECT count(*) FROM manual_audit WHERE action = 'APPROVE'")).isEqualTo("0");
    HttpResponse<String> open = rig.call("GET", "/ops/commands", APPROVER_BOB, null);
    assertThat(open.body())
        .startsWith("{\"items\":[{\"id\":" + cmd + ",")
        .contains("\"nextCursor\":null");

    // The approver rejects it instead; the operator may propose again on the facts as they are.
    HttpResponse<String> rejected =
        rig.call(
            "POST", "/ops/commands/" + cmd + "/reject", APPROVER_BOB, "{\"reason\":\"stale\"}");
    assertThat(rejected.body()).contains("\"state\":\"REJECTED\"");
    assertThat(proposeAndApprove("CONFIRM_REFUNDED", id).body()).contains("APPLIED");
    assertThat(refund(id, "status")).isEqualTo("SUCCESS");
  }

  @Test
  void badInputAndMerchantKeysAreRefusedWithStableCodes() throws Exception {
    long id = abnormalRefund("bad");
    HttpResponse<String> merchant =
        rig.call("POST", "/ops/commands", MERCHANT, proposal("CONFIRM_REFUNDED", id, "x"));
    assertThat(merchant.statusCode()).isEqualTo(403);
    assertThat(rig.call("GET", "/ops/commands", MERCHANT, null).statusCode()).isEqualTo(403);
    HttpResponse<String> badKind =
        rig.call("POST", "/ops/commands", OPERATOR_ALICE, proposal("DELETE_REFUND", id, "x"));
    assertThat(badKind.statusCode()).isEqualTo(400);
    assertThat(badKind.body()).contains("invalid_command");
    HttpResponse<String> noEvidence =
        rig.call(
            "POST",
            "/ops/commands",
            OPERATOR_ALICE,
            "{\"kind\":\"CONFIRM_REFUNDED\",\"targetId\":"
                + id
                + ",\"ticket\":\"T\",\"reason\":\"r\"}");
    assertThat(noEvidence.statusCode()).isEqualTo(400);
    assertThat(noEvidence.body()).contains("missing_field");
    // A command meant for another kind of target: not found as such a target.
    HttpResponse<String> missing =
        rig.call("POST", "/ops/commands", OPERATOR_ALICE, proposal("KEEP_CHARGE", 987654, "x"));
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(text("SELECT count(*) FROM manual_command")).isEqualTo("0");
    assertThat(text("SELECT count(*) FROM manual_audit")).isEqualTo("0");
    assertThat(refund(id, "status")).isEqualTo("ABNORMAL");
  }

  /**
   * Order T_U: attempt 101 UNKNOWN, its task MANUAL. Order T_P: attempt 102 PENDING, its task READY
   * (automatic). Orders T_K, T_F, T_R: attempts 103-105 FAILED, each charged all the same, their
   * compensations MANUAL.
   */
  private static void channelCases() throws Exception {
    sql(
        """
        INSERT INTO channel_account
          (id, channel, account_ref, failure_domain, payment_methods, priority)
        VALUES (1, 'stripe', 'acct_a', 'psp:stripe-a', 'card', 1);
        INSERT INTO payment_order
          (trade_order_no, amount, currency, payment_method, status, created_at, updated_at)
        VALUES ('T_U', 1500, 'EUR', 'card', 'OPEN', now(), now()),
               ('T_P', 1500, 'EUR', 'card', 'OPEN', now(), now()),
               ('T_K', 1500, 'EUR', 'card', 'OPEN', now(), now()),
               ('T_F', 1500, 'EUR', 'card', 'OPEN', now(), now()),
               ('T_R', 1500, 'EUR', 'card', 'OPEN', now(), now());
        INSERT INTO payment_attempt
          (id, trade_order_no, seq, channel_account_id, origin, provider_idempotency_key,
           create_request_hash, status, result_certainty, amount, currency, payment_method,
           created_at, updated_at)
        VALUES
          (101, 'T_U', 1, 1, 'INITIAL', 'k101', repeat('0', 64), 'UNKNOWN', 'UNKNOWN', 1500,
           'EUR', 'card', now(), now()),
          (102, 'T_P', 1, 1, 'INITIAL', 'k102', repeat('0', 64), 'PENDING', 'PENDING', 1500,
           'EUR', 'card', now(), now()),
          (103, 'T_K', 1, 1, 'INITIAL', 'k103', repeat('0', 64), 'FAILED', 'DEFINITE_FAILURE',
           1500, 'EUR', 'card', now(), now()),
          (104, 'T_F', 1, 1, 'INITIAL', 'k104', repeat('0', 64), 'FAILED', 'DEFINITE_FAILURE',
           1500, 'EUR', 'card', now(), now()),
          (105, 'T_R', 1, 1, 'INITIAL', 'k105', repeat('0', 64), 'FAILED', 'DEFINITE_FAILURE',
           1500, 'EUR', 'card', now(), now());
        INSERT INTO recovery_task
          (attempt_id, channel_account_id, status, strategy, due_at, policy_version,
           created_at, updated_at)
        VALUES (101, 1, 'MANUAL', 'QUERY', now(), 'v1', now(), now()),
               (102, 1, 'READY', 'QUERY', now() + interval '1 hour', 'v1', now(), now());
        INSERT INTO attempt_compensation
          (attempt_id, trade_order_no, refund_no, amount, status, reason, last_error, due_at,
           created_at, updated_at)
        SELECT id, trade_order_no, CONCAT('CR', id), 1500, 'MANUAL', 'CHARGED_AFTER_FAILURE',
               'REFUND_ABNORMAL', now(), now(), now()
          FROM payment_attempt WHERE id IN (103, 104, 105);
        """);
  }

  @Test
  void anAttemptNobodyCouldLearnIsSettledFromEvidence() throws Exception {
    channelCases();
    HttpResponse<String> approved = proposeAndApprove("CONFIRM_ATTEMPT_SUCCEEDED", 101);
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    assertThat(approved.body()).contains("APPLIED", "\"result\":\"SUCCEEDED\"");
    assertThat(
            text(
                "SELECT status || ' ' || result_certainty || ' v' || version"
                    + " || coalesce(provider_payment_id, '') FROM payment_attempt WHERE id = 101"))
        .isEqualTo("SUCCEEDED CONFIRMED_SUCCESS v1");
    assertThat(text("SELECT status FROM recovery_task WHERE attempt_id = 101"))
        .isEqualTo("RESOLVED");
    assertThat(
            text(
                "SELECT source || ' ' || operation || ' ' || provider_object_id"
                    + " FROM provider_evidence WHERE attempt_id = 101"))
        .isEqualTo("MANUAL MANUAL_CONFIRM psp ref re_9");
    assertThat(
            text(
                "SELECT from_status || '>' || to_status || ' ' || source"
                    + " FROM payment_attempt_history WHERE attempt_id = 101"))
        .isEqualTo("UNKNOWN>SUCCEEDED MANUAL");
    assertThat(
            text("SELECT count(*) FROM outbox_event WHERE event_type = 'PaymentAttemptSucceeded'"))
        .isEqualTo("1");

    // Final now; and an attempt whose recovery is still automatic is not a person's to settle.
    HttpResponse<String> fin =
        rig.call(
            "POST", "/ops/commands", OPERATOR_ALICE, proposal("CONFIRM_ATTEMPT_FAILED", 101, "x"));
    assertThat(fin.statusCode()).isEqualTo(409);
    assertThat(fin.body()).contains("\"code\":\"attempt_final\"");
    HttpResponse<String> auto =
        rig.call(
            "POST", "/ops/commands", OPERATOR_ALICE, proposal("CONFIRM_ATTEMPT_FAILED", 102, "x"));
    assertThat(auto.statusCode()).isEqualTo(409);
    assertThat(auto.body()).contains("\"code\":\"attempt_not_waiting\"");
    assertThat(text("SELECT status || ' v' || version FROM payment_attempt WHERE id = 102"))
        .isEqualTo("PENDING v0");
  }

  @Test
  void aCompensationIsRefundedKeptOrHandedToFinance() throws Exception {
    channelCases();
    assertThat(proposeAndApprove("KEEP_CHARGE", 103).body()).contains("\"result\":\"KEPT\"");
    assertThat(proposeAndApprove("HAND_TO_FINANCE", 104).body()).contains("\"result\":\"FINANCE\"");
    assertThat(proposeAndApprove("REFUND_CHARGE", 105).body()).contains("\"result\":\"PENDING\"");
    assertThat(
            text(
                "SELECT "
                    + TestSql.stringAgg("attempt_id || ' ' || status", ", ", "attempt_id")
                    + " FROM attempt_compensation"))
        .isEqualTo("103 KEPT, 104 FINANCE, 105 PENDING");
    assertThat(
            text(
                "SELECT count(*) FROM outbox_event"
                    + " WHERE event_type = 'DuplicateChargeSettledByPerson'"))
        .isEqualTo("2");

    // Settled compensations are final: refused with a stable code, and the database holds it too.
    HttpResponse<String> again =
        rig.call("POST", "/ops/commands", OPERATOR_ALICE, proposal("REFUND_CHARGE", 103, "x"));
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("\"code\":\"compensation_settled\"");
    HttpResponse<String> pending =
        rig.call("POST", "/ops/commands", OPERATOR_ALICE, proposal("KEEP_CHARGE", 105, "x"));
    assertThat(pending.body()).contains("\"code\":\"compensation_not_manual\"");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> sql("UPDATE attempt_compensation SET status = 'PENDING' WHERE attempt_id = 103"))
        .hasMessageContaining("settled status KEPT");

    HttpResponse<String> listed =
        rig.call("GET", "/ops/commands/targets/COMPENSATION/103", APPROVER_BOB, null);
    assertThat(listed.body()).contains("KEEP_CHARGE", "APPLIED");
  }

  private interface Query {
    String get() throws Exception;
  }

  private static String quiet(Query q) {
    try {
      return q.get();
    } catch (Exception e) {
      return null;
    }
  }
}
