package dev.clearway.service.refundbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.service.testkit.ServiceBoot;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * Batch refunds over real HTTP: maker/checker (the proposer cannot approve, spelled any way), bad
 * input refused with stable codes and nothing written, roles, one open batch per scene, pause and
 * resume, and a batch run by the node's runner through the refund engine to its report.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class RefundBatchHttpTest {
  private static final String OPERATOR_ALICE = "op-alice-key-b47c1d";
  private static final String APPROVER_ALICE = "ap-alice-key-2e9f5a";
  private static final String APPROVER_BOB = "ap-bob-key-7d3c8e1";
  private static final String MERCHANT_KEY = "merchant-key-9a1b3c";
  private static final String MERCHANT = "shop-h";

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
            .keys(
                MERCHANT_KEY,
                "Alice=" + OPERATOR_ALICE,
                " alice =" + APPROVER_ALICE + ",bob=" + APPROVER_BOB)
            .properties(
                "clearway.refund-batches.qps=4",
                "clearway.refund-batches.poll-interval=100ms",
                "clearway.refund-batches.settle-interval=200ms")
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
    TestDatabase.get()
        .truncate(
            "refund_batch_audit",
            "refund_batch_item",
            "refund_batch",
            "refund_order_history",
            "refund_order");
  }

  @Test
  void theProposerCannotApproveAndBadInputWritesNothing() throws Exception {
    paidGoals("gala", 3);
    HttpResponse<String> proposed =
        call("POST", "/ops/refund-batches", OPERATOR_ALICE, body("gala"));
    assertThat(proposed.statusCode()).isEqualTo(201);
    assertThat(proposed.body()).contains("\"state\":\"PROPOSED\"").contains("\"totalItems\":3");
    long id = id(proposed.body());

    HttpResponse<String> self =
        call("POST", "/ops/refund-batches/" + id + "/approve", APPROVER_ALICE, null);
    assertThat(self.statusCode()).isEqualTo(409);
    assertThat(self.body()).contains("\"code\":\"same_person\"");
    assertThat(
            call("POST", "/ops/refund-batches/" + id + "/approve", OPERATOR_ALICE, null)
                .statusCode())
        .isEqualTo(403);
    assertThat(
            call("POST", "/ops/refund-batches/" + id + "/approve", MERCHANT_KEY, null).statusCode())
        .isEqualTo(403);
    assertThat(call("GET", "/ops/refund-batches/" + id, null, null).statusCode()).isEqualTo(401);
    assertThat(count("SELECT count(*) FROM refund_batch WHERE state = 'PROPOSED'")).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM refund_batch_audit")).isEqualTo(1);

    long batchesBefore = count("SELECT count(*) FROM refund_batch");
    assertCode(
        call("POST", "/ops/refund-batches", OPERATOR_ALICE, body("gala")),
        409,
        "batch_already_open");
    assertCode(
        call("POST", "/ops/refund-batches", OPERATOR_ALICE, body("nothing-here")),
        409,
        "nothing_to_refund");
    assertCode(
        call(
            "POST",
            "/ops/refund-batches",
            OPERATOR_ALICE,
            "{\"merchant\":\"" + MERCHANT + "\",\"scene\":\"gala\",\"reason\":\"x\"}"),
        400,
        "missing_field");
    assertCode(
        call(
            "POST",
            "/ops/refund-batches",
            OPERATOR_ALICE,
            "{\"merchant\":\""
                + MERCHANT
                + "\",\"scene\":\"other\",\"ticket\":\"T\",\"reason\":\"x\","
                + "\"paidFrom\":\"2030-02-01T00:00:00Z\",\"paidTo\":\"2030-01-01T00:00:00Z\"}"),
        400,
        "invalid_window");
    assertCode(
        call(
            "POST",
            "/ops/refund-batches",
            OPERATOR_ALICE,
            "{\"merchant\":\""
                + MERCHANT
                + "\",\"scene\":\"other\",\"ticket\":\"T\",\"reason\":\"x\","
                + "\"paidFrom\":\"yesterday\"}"),
        400,
        "invalid_window");
    assertCode(
        call(
            "POST",
            "/ops/refund-batches",
            OPERATOR_ALICE,
            "{\"merchant\":\""
                + MERCHANT
                + "\",\"scene\":\"other\",\"ticket\":\"T\",\"reason\":\"x\","
                + "\"bizKeys\":[]}"),
        400,
        "invalid_biz_keys");
    assertCode(call("POST", "/ops/refund-batches", APPROVER_BOB, body("other")), 403, "forbidden");
    assertCode(
        call("POST", "/ops/refund-batches/999/approve", APPROVER_BOB, null),
        404,
        "batch_not_found");
    assertCode(
        call("GET", "/ops/refund-batches?state=NOPE", OPERATOR_ALICE, null),
        400,
        "invalid_parameter");
    assertThat(count("SELECT count(*) FROM refund_batch")).isEqualTo(batchesBefore);
    assertThat(count("SELECT count(*) FROM refund_batch_item")).isEqualTo(3);
    assertThat(count("SELECT count(*) FROM refund_batch_audit")).isEqualTo(1);
    assertThat(count("SELECT count(*) FROM refund_order")).isZero();

    HttpResponse<String> rejected =
        call(
            "POST",
            "/ops/refund-batches/" + id + "/reject",
            APPROVER_BOB,
            "{\"reason\":\"wrong scene\"}");
    assertThat(rejected.statusCode()).isEqualTo(200);
    assertThat(rejected.body()).contains("\"state\":\"REJECTED\"").contains("\"approver\":\"bob\"");
    assertCode(
        call("POST", "/ops/refund-batches/" + id + "/approve", APPROVER_BOB, null),
        409,
        "batch_not_proposed");
    assertThat(count("SELECT count(*) FROM refund_order")).isZero();
  }

  @Test
  void anApprovedBatchRunsPausesResumesAndReports() throws Exception {
    paidGoals("festival", 12);
    long id = id(call("POST", "/ops/refund-batches", OPERATOR_ALICE, body("festival")).body());
    HttpResponse<String> approved =
        call("POST", "/ops/refund-batches/" + id + "/approve", APPROVER_BOB, null);
    assertThat(approved.statusCode()).isEqualTo(200);
    assertThat(approved.body()).contains("\"approver\":\"bob\"");

    // At 4 a second the runner needs about 3 s: pause it on the way.
    Thread.sleep(600);
    assertThat(call("POST", "/ops/refund-batches/" + id + "/pause", OPERATOR_ALICE, null).body())
        .contains("\"state\":\"PAUSED\"");
    // An order the runner was placing when the pause landed may still be written.
    Thread.sleep(1_500);
    long ordersWhilePaused = count("SELECT count(*) FROM refund_order");
    Thread.sleep(1_000);
    assertThat(count("SELECT count(*) FROM refund_order"))
        .as("a paused batch creates no orders")
        .isEqualTo(ordersWhilePaused)
        .isLessThan(12);

    assertThat(call("POST", "/ops/refund-batches/" + id + "/resume", APPROVER_BOB, null).body())
        .contains("\"state\":\"RUNNING\"");
    String done = awaitState(id, "DONE");
    assertThat(done).contains("\"REFUNDED\":12").contains("\"finishedItems\":12");
    assertThat(done)
        .contains("\"action\":\"PAUSE\"")
        .contains("\"action\":\"RESUME\"")
        .contains("\"action\":\"DONE\"");
    assertThat(count("SELECT count(*) FROM refund_order WHERE status = 'SUCCESS'")).isEqualTo(12);

    HttpResponse<String> report =
        call(
            "GET",
            "/ops/refund-batches/" + id + "/report?outcome=REFUNDED&limit=5",
            OPERATOR_ALICE,
            null);
    assertThat(report.statusCode()).isEqualTo(200);
    assertThat(report.body()).contains("\"REFUNDED\":12").contains("\"next\":5");
    assertThat(call("GET", "/ops/refund-batches?state=DONE", APPROVER_BOB, null).body())
        .contains("\"id\":" + id);

    // The same scene again: nothing refunded twice.
    long again = id(call("POST", "/ops/refund-batches", OPERATOR_ALICE, body("festival")).body());
    call("POST", "/ops/refund-batches/" + again + "/approve", APPROVER_BOB, null);
    assertThat(awaitState(again, "DONE")).contains("\"ALREADY_REFUNDED\":12");
    assertThat(count("SELECT count(*) FROM refund_order")).isEqualTo(12);
  }

  private static String awaitState(long id, String state) throws Exception {
    long until = System.nanoTime() + 60_000_000_000L;
    String body = "";
    while (System.nanoTime() < until) {
      body = call("GET", "/ops/refund-batches/" + id, OPERATOR_ALICE, null).body();
      if (body.contains("\"state\":\"" + state + "\"")) {
        return body;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("batch " + id + " never reached " + state + ": " + body);
  }

  private static String body(String scene) {
    return "{\"merchant\":\""
        + MERCHANT
        + "\",\"scene\":\""
        + scene
        + "\",\"ticket\":\"OPS-88\",\"reason\":\"activity cancelled\"}";
  }

  private static void assertCode(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
    assertThat(r.body()).contains("\"code\":\"" + code + "\"");
  }

  private static long id(String json) {
    int i = json.indexOf("\"id\":") + 5;
    int j = i;
    while (Character.isDigit(json.charAt(j))) {
      j++;
    }
    return Long.parseLong(json.substring(i, j));
  }

  /** {@code n} BIZ_SUCCESS payments of the merchant's scene, charged at the wallet. */
  private static void paidGoals(String scene, int n) throws SQLException {
    String now = TestSql.timestamp(Instant.now());
    try (Connection c = TestDatabase.get().dataSource().getConnection()) {
      TestSql.insertFlows(
          c,
          """
          merchant_id, user_id, scene, biz_key, attempt_no, trade_order_no, refund_order_no,
          status, version, amount, currency, biz_deadline_time, next_retry_time, created_at,
          updated_at""",
          """
          SELECT '%1$s', 42, '%2$s', CONCAT('k', g), 1, CONCAT('t_%2$s_', g),
                 CONCAT('r_t_%2$s_', g), 'BIZ_SUCCESS', 3, 900, 'CNY', %3$s, %3$s, %3$s, %3$s
            FROM %4$s
          """
              .formatted(MERCHANT, scene, now, TestSql.series(1, n, "g")));
      try (PreparedStatement ps =
          c.prepareStatement("SELECT trade_order_no FROM pay_flow WHERE scene = ? ORDER BY id")) {
        ps.setString(1, scene);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            wallet.pay(new ChargeRequest(rs.getString(1), 42, 900, "CNY"));
          }
        }
      }
    }
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

  private static long count(String sql) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void exec(String sql) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }
}
