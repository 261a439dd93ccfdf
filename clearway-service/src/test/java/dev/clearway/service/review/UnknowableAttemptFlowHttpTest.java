package dev.clearway.service.review;

import static dev.clearway.service.review.OpsRig.APPROVER_BOB;
import static dev.clearway.service.review.OpsRig.MERCHANT;
import static dev.clearway.service.review.OpsRig.OPERATOR_ALICE;
import static dev.clearway.service.review.OpsRig.commandId;
import static dev.clearway.service.review.OpsRig.sql;
import static dev.clearway.service.review.OpsRig.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.ChannelAccounts;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A payment whose attempt's result nobody can learn (the PSP answers every call with a timeout),
 * end to end over real HTTP with the engine paying through the channel layer: the flow waits in
 * PAYING until an operator's command, approved by another named person, settles the attempt; the
 * flow then takes its normal transition (PAYING to PAYED and on to BIZ_SUCCESS, or PAYING to
 * PAY_FAIL), with its history row and the command's audit.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class UnknowableAttemptFlowHttpTest {
  private static final AtomicInteger USERS = new AtomicInteger(7000);
  private static OpsRig rig;

  @BeforeAll
  static void start() {
    Map<String, Object> beans = new LinkedHashMap<>();
    beans.put(
        "channelAccounts",
        new ChannelAccounts(
            List.of(
                new ChannelAccount(
                    1, "stripe", "acct_silent", "psp:silent", Set.of("card"), 1, true))));
    PspAdapter silent = new SilentPsp();
    beans.put("adapterRegistry", (AdapterRegistry) id -> silent);
    beans.put("paymentMethods", PaymentMethods.fixed("card", "pm_card_visa"));
    rig = OpsRig.withChannels(beans);
  }

  @AfterAll
  static void stop() {
    rig.close();
  }

  @BeforeEach
  void reset() throws Exception {
    TestDatabase.get().reset();
    TestDatabase.get()
        .truncate(
            "manual_command",
            "manual_audit",
            "idempotency_key",
            "attempt_compensation",
            "recovery_task",
            "payment_attempt_history",
            "provider_evidence",
            "channel_refund",
            "payment_attempt",
            "payment_order");
    if (text("SELECT count(*) FROM channel_account WHERE id = 1").equals("0")) {
      sql(
          "INSERT INTO channel_account"
              + " (id, channel, account_ref, failure_domain, payment_methods, priority)"
              + " VALUES (1, 'stripe', 'acct_silent', 'psp:silent', 'card', 1)");
    }
  }

  /** A payment created over HTTP whose attempt ends UNKNOWN while its flow waits in PAYING. */
  private static long unknowablePayment(String bizKey) throws Exception {
    String deadline =
        Instant.now().plus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.SECONDS).toString();
    HttpResponse<String> created =
        rig.call(
            "POST",
            "/v1/payments",
            MERCHANT,
            "{\"userId\":"
                + USERS.incrementAndGet()
                + ",\"scene\":\"renewal\",\"bizKey\":\""
                + bizKey
                + "\",\"amount\":990,\"currency\":\"CNY\",\"bizDeadline\":\""
                + deadline
                + "\"}",
            "idem-" + bizKey);
    assertThat(created.statusCode()).as(created.body()).isBetween(200, 202);
    long flowId = Long.parseLong(field(created.body(), "flowId"));
    OpsRig.await(() -> "UNKNOWN".equals(quiet(() -> attemptOf(flowId, "status"))));
    assertThat(attemptOf(flowId, "status")).isEqualTo("UNKNOWN");
    assertThat(flow(flowId, "status")).isEqualTo("PAYING");
    return flowId;
  }

  private static String attemptOf(long flowId, String column) throws Exception {
    return text(
        "SELECT "
            + column
            + " FROM payment_attempt WHERE trade_order_no ="
            + " (SELECT trade_order_no FROM pay_flow WHERE id = "
            + flowId
            + ")");
  }

  private static String flow(long flowId, String column) throws Exception {
    return text("SELECT " + column + " FROM pay_flow WHERE id = " + flowId);
  }

  /** Alice proposes the command on the flow's attempt; Bob approves it: the approval's answer. */
  private static HttpResponse<String> settle(String kind, long attemptId) throws Exception {
    return settle(kind, attemptId, "");
  }

  /** {@link #settle}, with {@code more} JSON fields (each after a comma) in the proposal. */
  private static HttpResponse<String> settle(String kind, long attemptId, String more)
      throws Exception {
    HttpResponse<String> proposed = propose(kind, attemptId, more);
    assertThat(proposed.statusCode()).as(proposed.body()).isEqualTo(201);
    long id = commandId(proposed.body());
    // Nothing moves on a proposal alone.
    assertThat(text("SELECT status FROM payment_attempt WHERE id = " + attemptId))
        .isEqualTo("UNKNOWN");
    return rig.call("POST", "/ops/commands/" + id + "/approve", APPROVER_BOB, null);
  }

  private static HttpResponse<String> propose(String kind, long attemptId, String more)
      throws Exception {
    return rig.call(
        "POST",
        "/ops/commands",
        OPERATOR_ALICE,
        "{\"kind\":\""
            + kind
            + "\",\"targetId\":"
            + attemptId
            + ",\"ticket\":\"OPS-77\",\"reason\":\"the PSP's dashboard shows it\","
            + "\"evidence\":\"psp dashboard pi_77\""
            + more
            + "}");
  }

  /** The payment's attempt, its task handed to a person: the PSP charged another amount. */
  private static long mismatched(long flowId) throws Exception {
    long attemptId = Long.parseLong(attemptOf(flowId, "id"));
    sql(
        "UPDATE recovery_task SET status = 'MANUAL', lease_owner = NULL, lease_until = NULL,"
            + " last_error = 'AMOUNT_MISMATCH' WHERE attempt_id = "
            + attemptId);
    return attemptId;
  }

  @Test
  void aChargeOfAnotherAmountIsKeptOnlyByItsOwnCommandAndThenTheFlowIsPaid() throws Exception {
    long flowId = unknowablePayment("mismatch-kept");
    long attemptId = mismatched(flowId);
    String before = attemptOf(flowId, "status || ' v' || version");

    // Illegal on this attempt, or badly formed: a stable code each, and nothing is written.
    HttpResponse<String> failed = propose("CONFIRM_ATTEMPT_FAILED", attemptId, "");
    assertThat(failed.statusCode()).isEqualTo(409);
    assertThat(failed.body()).contains("\"code\":\"amount_mismatch\"");
    HttpResponse<String> noAmount = propose("REFUND_MISMATCHED_CHARGE", attemptId, "");
    assertThat(noAmount.statusCode()).isEqualTo(400);
    assertThat(noAmount.body()).contains("\"code\":\"missing_field\"");
    HttpResponse<String> keptWithAmount =
        propose("KEEP_MISMATCHED_CHARGE", attemptId, ",\"amount\":989");
    assertThat(keptWithAmount.statusCode()).isEqualTo(400);
    assertThat(keptWithAmount.body()).contains("\"code\":\"invalid_amount\"");
    assertThat(text("SELECT count(*) FROM manual_command")).isEqualTo("0");
    assertThat(text("SELECT count(*) FROM manual_audit")).isEqualTo("0");
    assertThat(attemptOf(flowId, "status || ' v' || version")).isEqualTo(before);
    assertThat(flow(flowId, "status")).isEqualTo("PAYING");

    HttpResponse<String> kept = settle("KEEP_MISMATCHED_CHARGE", attemptId);
    assertThat(kept.statusCode()).as(kept.body()).isEqualTo(200);
    assertThat(kept.body()).contains("\"result\":\"SUCCEEDED\"", "\"amount\":null");
    OpsRig.await(() -> "BIZ_SUCCESS".equals(quiet(() -> flow(flowId, "status"))));
    assertThat(flow(flowId, "status")).isEqualTo("BIZ_SUCCESS");
    assertThat(text("SELECT count(*) FROM attempt_compensation")).isEqualTo("0");
  }

  @Test
  void aChargeOfAnotherAmountIsRefundedOrHandedToFinanceAndTheFlowFails() throws Exception {
    long refundedFlow = unknowablePayment("mismatch-refunded");
    long financeFlow = unknowablePayment("mismatch-finance");
    long refunded = mismatched(refundedFlow);
    long finance = mismatched(financeFlow);
    // Only an attempt whose task waits on a charge of another amount takes these commands.
    long plainFlow = unknowablePayment("mismatch-none");
    HttpResponse<String> plain =
        propose(
            "MISMATCH_TO_FINANCE", Long.parseLong(attemptOf(plainFlow, "id")), ",\"amount\":990");
    assertThat(plain.statusCode()).isEqualTo(409);
    assertThat(plain.body()).contains("\"code\":\"not_amount_mismatch\"");
    assertThat(text("SELECT count(*) FROM manual_command")).isEqualTo("0");

    assertThat(settle("REFUND_MISMATCHED_CHARGE", refunded, ",\"amount\":989").body())
        .contains("\"result\":\"FAILED\"", "\"amount\":989");
    assertThat(settle("MISMATCH_TO_FINANCE", finance, ",\"amount\":1090").body())
        .contains("\"result\":\"FAILED\"", "\"amount\":1090");

    OpsRig.await(() -> "PAY_FAIL".equals(quiet(() -> flow(refundedFlow, "status"))));
    OpsRig.await(() -> "PAY_FAIL".equals(quiet(() -> flow(financeFlow, "status"))));
    assertThat(flow(refundedFlow, "status")).isEqualTo("PAY_FAIL");
    assertThat(flow(financeFlow, "status")).isEqualTo("PAY_FAIL");
    assertThat(attemptOf(refundedFlow, "status || ' ' || error_code"))
        .isEqualTo("FAILED AMOUNT_MISMATCH_REFUNDED");
    assertThat(attemptOf(financeFlow, "status || ' ' || error_code"))
        .isEqualTo("FAILED AMOUNT_MISMATCH_FINANCE");
    // The refund is the compensation worker's (this PSP never answers, so it stays open); the
    // hand-over is final, with its event.
    assertThat(
            text(
                "SELECT "
                    + TestSql.stringAgg(
                        "attempt_id || ' ' || amount || ' ' || reason || ' '"
                            + " || CASE WHEN status = 'FINANCE' THEN 'FINANCE' ELSE 'OPEN' END",
                        ", ",
                        "attempt_id")
                    + " FROM attempt_compensation"))
        .isEqualTo(
            refunded + " 989 AMOUNT_MISMATCH OPEN, " + finance + " 1090 AMOUNT_MISMATCH FINANCE");
    assertThat(
            text(
                "SELECT count(*) FROM outbox_event"
                    + " WHERE event_type = 'MismatchedChargeSettledByPerson'"))
        .isEqualTo("1");
    assertThat(text("SELECT count(*) FROM payment_attempt")).isEqualTo("3");
  }

  @Test
  void aConfirmedChargeMovesTheFlowFromPayingToPayedAndOnThroughItsNormalTransitions()
      throws Exception {
    long flowId = unknowablePayment("unknowable-paid");
    long attemptId = Long.parseLong(attemptOf(flowId, "id"));
    // Recovery gave up on it: the task waits for a person.
    sql(
        "UPDATE recovery_task SET status = 'MANUAL', lease_owner = NULL, lease_until = NULL,"
            + " last_error = 'MAX_UNKNOWN_AGE' WHERE attempt_id = "
            + attemptId);
    Thread.sleep(300);
    assertThat(flow(flowId, "status")).isEqualTo("PAYING");

    HttpResponse<String> approved = settle("CONFIRM_ATTEMPT_SUCCEEDED", attemptId);
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    assertThat(approved.body()).contains("\"state\":\"APPLIED\"", "\"result\":\"SUCCEEDED\"");

    OpsRig.await(() -> "BIZ_SUCCESS".equals(quiet(() -> flow(flowId, "status"))));
    assertThat(flow(flowId, "status")).isEqualTo("BIZ_SUCCESS");
    assertThat(
            text(
                "SELECT "
                    + TestSql.stringAgg(
                        "coalesce(from_status, '-') || '>' || to_status", ", ", "id")
                    + " FROM pay_flow_history WHERE flow_id = "
                    + flowId))
        .endsWith("PAYING>PAYED, PAYED>BIZ_SUCCESS");
    assertThat(
            text(
                "SELECT count(*) FROM pay_flow_history WHERE from_status = 'PAYING'"
                    + " AND to_status = 'PAYED' AND flow_id = "
                    + flowId))
        .isEqualTo("1");
    assertThat(text("SELECT status FROM recovery_task WHERE attempt_id = " + attemptId))
        .isEqualTo("RESOLVED");
    assertThat(
            text(
                "SELECT "
                    + TestSql.stringAgg(
                        "actor_id || ' ' || role || ' ' || action || ' ' || detail", "; ", "id")
                    + " FROM manual_audit WHERE target_kind = 'ATTEMPT'"
                    + " AND target_id = "
                    + attemptId))
        .isEqualTo(
            "alice OPERATOR PROPOSE CONFIRM_ATTEMPT_SUCCEEDED ticket OPS-77;"
                + " bob APPROVER APPROVE CONFIRM_ATTEMPT_SUCCEEDED -> SUCCEEDED");
    // The merchant's view of the payment says it succeeded.
    HttpResponse<String> seen = rig.call("GET", "/v1/payment-flows/" + flowId, MERCHANT, null);
    assertThat(seen.body()).contains("BIZ_SUCCESS");
  }

  @Test
  void aConfirmedFailureMovesTheFlowFromPayingToPayFail() throws Exception {
    long flowId = unknowablePayment("unknowable-failed");
    long attemptId = Long.parseLong(attemptOf(flowId, "id"));

    HttpResponse<String> approved = settle("CONFIRM_ATTEMPT_FAILED", attemptId);
    assertThat(approved.statusCode()).as(approved.body()).isEqualTo(200);
    assertThat(approved.body()).contains("\"result\":\"FAILED\"");

    OpsRig.await(() -> "PAY_FAIL".equals(quiet(() -> flow(flowId, "status"))));
    assertThat(flow(flowId, "status")).isEqualTo("PAY_FAIL");
    assertThat(
            text(
                "SELECT from_status || '>' || to_status || ' ' || coalesce(error_code, '')"
                    + " FROM pay_flow_history WHERE flow_id = "
                    + flowId
                    + " ORDER BY id DESC LIMIT 1"))
        .isEqualTo("PAYING>PAY_FAIL MANUAL_CONFIRMED_FAILED");
    assertThat(
            attemptOf(
                flowId,
                "status || ' ' || CASE WHEN failover_eligible THEN 'true' ELSE 'false' END"))
        .isEqualTo("FAILED false");
    // One attempt only: a confirmed failure is not a channel failure, nothing fails over.
    assertThat(text("SELECT count(*) FROM payment_attempt")).isEqualTo("1");
    assertThat(
            text(
                "SELECT "
                    + TestSql.stringAgg("actor_id || ' ' || action", "; ", "id")
                    + " FROM manual_audit"
                    + " WHERE target_kind = 'ATTEMPT' AND target_id = "
                    + attemptId))
        .isEqualTo("alice PROPOSE; bob APPROVE");
  }

  private static String field(String json, String name) {
    int i = json.indexOf("\"" + name + "\":") + name.length() + 3;
    int j = i;
    while (j < json.length() && Character.isDigit(json.charAt(j))) {
      j++;
    }
    return json.substring(i, j);
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
