package dev.clearway.service.review;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.service.api.OutputCapture;
import dev.clearway.service.testkit.ServiceBoot;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Manual review over real HTTP: the queue, maker/checker (a command takes effect only after a
 * second, different person approves it), commands through the state machine, and the audit.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ReviewHttpTest {
  private static final String OPERATOR_ALICE = "op-alice-key-5d1f9b";
  private static final String APPROVER_ALICE = "ap-alice-key-8c2e4a";
  private static final String APPROVER_BOB = "ap-bob-key-3f7a1e0c";
  private static final String MERCHANT = "merchant-key-6b9d2c";

  private static ConfigurableApplicationContext context;
  private static HttpClient http;
  private static String base;
  private static SimWallet wallet;

  @BeforeAll
  static void start() {
    Clock clock = Clock.systemUTC();
    wallet = new SimWallet(FaultPlan.none(), clock);
    context =
        new ServiceBoot()
            // Alice holds both roles, her name spelled two ways: still one person.
            .keys(
                MERCHANT,
                "Alice=" + OPERATOR_ALICE,
                " alice =" + APPROVER_ALICE + ",bob=" + APPROVER_BOB)
            .clock(clock)
            .wallet(wallet)
            .start();
    base = ServiceBoot.base(context);
    http = HttpClient.newHttpClient();
  }

  @AfterAll
  static void stop() {
    context.close();
  }

  @BeforeEach
  void reset() throws Exception {
    TestDatabase.get().reset();
    TestDatabase.get().truncate("manual_command", "manual_audit");
  }

  /** A charged flow whose business fact contradicted itself: PAYED and frozen. */
  private static PayFlow frozenPayedFlow(String bizKey) {
    JdbcFlowStore store = TestDatabase.get().store();
    Instant now = Instant.now();
    PayFlow flow =
        store
            .createAttempt(
                new NewPayment(
                    GoalKey.ofDefaultMerchant(42, "renewal", bizKey),
                    700,
                    "CNY",
                    now.plusSeconds(3600)),
                // Held for a minute: an expired lease would let the running engine's scanner
                // claim the row before the moves below, which write under this lease.
                new Lease("test-holder", now.plusSeconds(60)),
                now)
            .flow();
    flow = move(store, flow, FlowStatus.PAYING);
    wallet.pay(new ChargeRequest(flow.tradeOrderNo(), 42, 700, "CNY"));
    flow = move(store, flow, FlowStatus.PAYED);
    store.freeze(flow.id(), flow.leaseOwner(), "BIZ_DONE_WITHOUT_ATTRIBUTION", now);
    return store.find(flow.id()).orElseThrow();
  }

  private static PayFlow move(JdbcFlowStore store, PayFlow from, FlowStatus to) {
    Instant now = Instant.now();
    return store
        .transition(
            new TransitionWrite(
                from,
                to,
                null,
                now.plusSeconds(60),
                from.leaseOwner(),
                new HistoryNote(TriggerSource.SYNC, null, "TEST", 0),
                now,
                from.leaseOwner()))
        .orElseThrow();
  }

  private static HttpResponse<String> call(String method, String path, String key, String json)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    if (json != null) {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String proposal(String kind) {
    return "{\"kind\":\""
        + kind
        + "\",\"ticket\":\"OPS-17\",\"reason\":\"wallet shows the charge,"
        + " the grant was never made\",\"evidence\":\"wallet statement line 881\"}";
  }

  private static long commandId(String json) {
    int i = json.indexOf("\"id\":") + 5;
    int j = i;
    while (Character.isDigit(json.charAt(j))) {
      j++;
    }
    return Long.parseLong(json.substring(i, j));
  }

  @Test
  void theQueueShowsFrozenFlowsToOperatorsOnly() throws Exception {
    PayFlow flow = frozenPayedFlow("q1");

    HttpResponse<String> queue = call("GET", "/ops/review/flows", OPERATOR_ALICE, null);
    assertThat(queue.statusCode()).isEqualTo(200);
    assertThat(queue.body())
        .contains("\"flowId\":" + flow.id())
        .contains("FROZEN")
        .contains("MANUAL_REVIEW");

    assertThat(call("GET", "/ops/review/flows", MERCHANT, null).statusCode()).isEqualTo(403);
    assertThat(call("GET", "/ops/review/flows", null, null).statusCode()).isEqualTo(401);

    HttpResponse<String> detail = call("GET", "/ops/review/flows/" + flow.id(), APPROVER_BOB, null);
    assertThat(detail.statusCode()).isEqualTo(200);
    assertThat(detail.body())
        .contains("\"history\"")
        .contains("PAYING")
        .contains("BIZ_DONE_WITHOUT_ATTRIBUTION");
  }

  @Test
  void aCommandTakesEffectOnlyAfterADifferentPersonApprovesIt() throws Exception {
    try (OutputCapture output = new OutputCapture()) {
      makerChecker();
      // The audit trail and the log name people, never their keys.
      String stored =
          text(
              "SELECT "
                  + TestSql.stringAgg(
                      "actor_id || ' ' || action || ' ' || coalesce(detail, '')", "; ", "id")
                  + " || ' | ' || (SELECT "
                  + TestSql.stringAgg("operator_id || ' ' || approver_id", "; ", "id")
                  + " FROM manual_command) FROM manual_audit");
      assertThat(stored).contains("alice PROPOSE", "bob APPROVE", "| alice bob");
      for (String key : new String[] {OPERATOR_ALICE, APPROVER_ALICE, APPROVER_BOB, MERCHANT}) {
        assertThat(stored).doesNotContain(key);
        assertThat(output.text()).doesNotContain(key);
      }
    }
  }

  private static String text(String sql) throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection()) {
      return TestSql.text(c, sql);
    }
  }

  private void makerChecker() throws Exception {
    PayFlow flow = frozenPayedFlow("m1");

    HttpResponse<String> proposed =
        call(
            "POST",
            "/ops/review/flows/" + flow.id() + "/commands",
            OPERATOR_ALICE,
            proposal("FORCE_REFUND"));
    assertThat(proposed.statusCode()).isEqualTo(201);
    assertThat(proposed.body()).contains("\"state\":\"PROPOSED\"");
    long id = commandId(proposed.body());
    PayFlow unchanged = TestDatabase.get().store().find(flow.id()).orElseThrow();
    assertThat(unchanged.status()).isEqualTo(FlowStatus.PAYED);
    assertThat(unchanged.reviewState()).isEqualTo(ReviewState.FROZEN);

    // The proposer herself, with her approver key: refused, to approve and to reject.
    HttpResponse<String> self =
        call("POST", "/ops/review/commands/" + id + "/approve", APPROVER_ALICE, null);
    assertThat(self.statusCode()).isEqualTo(409);
    assertThat(self.body()).contains("same_person");
    String reject = "/ops/review/commands/" + id + "/reject";
    assertThat(call("POST", reject, APPROVER_ALICE, "{\"reason\":\"x\"}").body())
        .contains("same_person");
    // An operator key cannot approve at all.
    assertThat(
            call("POST", "/ops/review/commands/" + id + "/approve", OPERATOR_ALICE, null)
                .statusCode())
        .isEqualTo(403);
    assertThat(TestDatabase.get().store().find(flow.id()).orElseThrow().status())
        .isEqualTo(FlowStatus.PAYED);

    HttpResponse<String> approved =
        call("POST", "/ops/review/commands/" + id + "/approve", APPROVER_BOB, null);
    assertThat(approved.statusCode()).isEqualTo(200);
    assertThat(approved.body())
        .contains("\"state\":\"APPLIED\"")
        .contains("\"approverId\":\"bob\"");

    // Through the state machine: PAYED -> REFUNDING (MANUAL), then the advancer refunds.
    Instant giveUp = Instant.now().plusSeconds(10);
    while (TestDatabase.get().store().find(flow.id()).orElseThrow().status() != FlowStatus.REFUNDED
        && Instant.now().isBefore(giveUp)) {
      Thread.sleep(50);
    }
    PayFlow after = TestDatabase.get().store().find(flow.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(FlowStatus.REFUNDED);
    assertThat(after.reviewState()).isEqualTo(ReviewState.NONE);
    assertThat(wallet.ledger())
        .filteredOn(e -> e.orderNo().equals(flow.refundOrderNo()))
        .hasSize(1);

    String detail = call("GET", "/ops/review/flows/" + flow.id(), OPERATOR_ALICE, null).body();
    assertThat(detail).contains("\"trigger\":\"MANUAL\"").contains("PROPOSE").contains("APPROVE");
  }

  @Test
  void resumeHandsTheFlowBackToTheEngineAndIllegalCommandsAreRefused() throws Exception {
    PayFlow flow = frozenPayedFlow("r1");
    long id =
        commandId(
            call(
                    "POST",
                    "/ops/review/flows/" + flow.id() + "/commands",
                    OPERATOR_ALICE,
                    proposal("RESUME"))
                .body());
    HttpResponse<String> approved =
        call("POST", "/ops/review/commands/" + id + "/approve", APPROVER_BOB, null);
    assertThat(approved.body()).contains("\"state\":\"APPLIED\"");

    // Unfrozen and due: the engine asks the business again, which grants it to this order.
    Instant giveUp = Instant.now().plusSeconds(10);
    while (!TestDatabase.get().store().find(flow.id()).orElseThrow().isTerminal()
        && Instant.now().isBefore(giveUp)) {
      Thread.sleep(50);
    }
    PayFlow done = TestDatabase.get().store().find(flow.id()).orElseThrow();
    assertThat(done.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);

    // A command on a terminal flow is not applicable, and nothing is written.
    HttpResponse<String> refused =
        call(
            "POST",
            "/ops/review/flows/" + flow.id() + "/commands",
            OPERATOR_ALICE,
            proposal("FORCE_REFUND"));
    assertThat(refused.statusCode()).isEqualTo(409);
    assertThat(refused.body()).contains("command_not_applicable");
    assertThat(TestDatabase.get().store().find(flow.id()).orElseThrow().version())
        .isEqualTo(done.version());

    HttpResponse<String> missing =
        call(
            "POST",
            "/ops/review/flows/" + flow.id() + "/commands",
            OPERATOR_ALICE,
            "{\"kind\":\"RESUME\"}");
    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.body()).contains("missing_field");
    HttpResponse<String> badKind =
        call(
            "POST",
            "/ops/review/flows/" + flow.id() + "/commands",
            OPERATOR_ALICE,
            proposal("DELETE_FLOW"));
    assertThat(badKind.statusCode()).isEqualTo(400);
    assertThat(badKind.body()).contains("invalid_command");
  }

  @Test
  void aProposalIsFailedWhenTheFlowChangedBeforeApproval() throws Exception {
    PayFlow flow = frozenPayedFlow("c1");
    long id =
        commandId(
            call(
                    "POST",
                    "/ops/review/flows/" + flow.id() + "/commands",
                    OPERATOR_ALICE,
                    proposal("CONFIRM_BIZ_SUCCESS"))
                .body());
    // Someone else acts meanwhile (here: a direct status change through the CAS, unfrozen first).
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("UPDATE pay_flow SET review_state = 'NONE' WHERE id = " + flow.id());
    }
    PayFlow current = TestDatabase.get().store().find(flow.id()).orElseThrow();
    move(TestDatabase.get().store(), current, FlowStatus.REFUNDING);

    HttpResponse<String> approved =
        call("POST", "/ops/review/commands/" + id + "/approve", APPROVER_BOB, null);
    assertThat(approved.statusCode()).isEqualTo(200);
    assertThat(approved.body()).contains("\"state\":\"FAILED\"").contains("FLOW_CHANGED");
    assertThat(TestDatabase.get().store().find(flow.id()).orElseThrow().status())
        .isNotEqualTo(FlowStatus.BIZ_SUCCESS);
  }

  @Test
  void theConsoleDataShowsFiguresAndAbnormalRefundsToOperatorsOnly() throws Exception {
    PayFlow flow = frozenPayedFlow("console-data");
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute("UPDATE pay_flow SET review_state = 'NONE' WHERE id = " + flow.id());
    }
    PayFlow done =
        move(
            TestDatabase.get().store(),
            TestDatabase.get().store().find(flow.id()).orElseThrow(),
            FlowStatus.BIZ_SUCCESS);
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      TestDatabase.get().truncate("refund_order_history", "refund_order", "outbox_event");
      st.execute(
          "INSERT INTO refund_order (flow_id, seq, trade_order_no, refund_no, amount, currency,"
              + " reason, requested_by, idem_key, request_hash, status, next_retry_time,"
              + " last_error_code, created_at, updated_at) VALUES ("
              + done.id()
              + ", 1, '"
              + done.tradeOrderNo()
              + "', 'a_"
              + done.tradeOrderNo()
              + "_1', 300, 'CNY', 'damaged', 'm', 'k', repeat('0', 64), 'ABNORMAL',"
              + " now() + "
              + TestSql.interval("1 hour")
              + ", 'WALLET_BUSY', now(), now())");
    }

    HttpResponse<String> summary = call("GET", "/ops/console/summary", OPERATOR_ALICE, null);
    assertThat(summary.statusCode()).isEqualTo(200);
    assertThat(summary.body())
        .contains("\"flowsByStatus\"")
        .contains("BIZ_SUCCESS")
        .contains("\"refundsByStatus\":{\"ABNORMAL\":1}");
    HttpResponse<String> abnormal =
        call("GET", "/ops/console/abnormal-refunds", APPROVER_BOB, null);
    assertThat(abnormal.body()).contains("\"refundNo\":\"a_" + done.tradeOrderNo() + "_1\"");
    assertThat(abnormal.body()).contains("WALLET_BUSY");
    assertThat(call("GET", "/ops/console/summary", MERCHANT, null).statusCode()).isEqualTo(403);
    assertThat(call("GET", "/ops/console/transitions", null, null).statusCode()).isEqualTo(401);
  }
}
