package dev.clearway.lab.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.lab.chaos.ChaosDatabase;
import dev.clearway.service.metrics.FlowStateGauges;
import dev.clearway.service.reconciliation.ReconSteps;
import dev.clearway.sharding.ShardKeys;
import dev.clearway.sharding.ShardedTestLayout;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.SqlDialects;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code serve} on a {@code jdbc:shardingsphere:} URL over two MariaDB databases that do not exist
 * yet (profile {@code mariadb}): the service installs them, and through real HTTP pays for goals of
 * several owners and two merchants (on more than one shard), answers a merchant's query and another
 * merchant's 404, refunds, refuses to cancel a confirmed charge, and serves the ops lists, the
 * review queue and the review's locking read, each a statement the driver routes.
 */
@Tag(ShardedTestLayout.SHARDING)
class ShardedServeTest {
  private static final String SHOP_A = "mk_test_sharded_serve_a_51c0";
  private static final String SHOP_B = "mk_test_sharded_serve_b_7e22";
  private static final String OPERATOR = "op_test_sharded_serve_0c4d";
  private static final String APPROVER = "ap_test_sharded_serve_93ab";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Test
  void theMerchantApiAndTheOpsListsRunSharded() throws Exception {
    ShardedTestLayout layout =
        ShardedTestLayout.fresh(
            Path.of("..", "deploy", "sharding", "clearway-mariadb.yaml"),
            "clearway_shserve",
            false);
    try (Serve.Running running =
        Serve.start(options(layout.url()), new PrintStream(OutputStream.nullOutputStream()))) {
      // The dialect the service's stores take from the pool: the sharded one (the pool's
      // connections report a physical database's jdbc:mariadb: URL).
      assertThat(SqlDialects.forDataSource(running.database().dataSource()).sharded()).isTrue();

      List<Long> flows = new ArrayList<>();
      for (int user : List.of(7, 14, 21, 28)) {
        flows.add(pay(running, SHOP_A, user, "a-" + user));
      }
      long other = pay(running, SHOP_B, 5, "b-5");
      Set<Integer> shards = new HashSet<>();
      for (long flow : flows) {
        assertThat(awaitStatus(running, SHOP_A, flow)).isEqualTo("BIZ_SUCCESS");
        shards.add(ShardKeys.ofId(flow));
      }
      assertThat(awaitStatus(running, SHOP_B, other)).isEqualTo("BIZ_SUCCESS");
      shards.add(ShardKeys.ofId(other));
      assertThat(shards).as("shards the payments live on").hasSizeGreaterThan(1);

      // A merchant reads its own payment; another merchant's key finds nothing.
      assertThat(get(running, SHOP_A, "/v1/payment-flows/" + flows.get(0)).statusCode())
          .isEqualTo(200);
      HttpResponse<String> foreign = get(running, SHOP_B, "/v1/payment-flows/" + flows.get(0));
      assertThat(foreign.statusCode()).isEqualTo(404);
      assertThat(foreign.body()).contains("flow_not_found");

      // An id or a number shaped like ours but naming a shard past the layout (bits 37 of four
      // shards) is no such row: 404 with the usual code, and nothing is written.
      long past = (37L << ShardKeys.SHIFT) | (flows.get(0) & ((1L << ShardKeys.SHIFT) - 1));
      String pastTrade = OrderNumbers.derive(7, past).tradeOrderNo();
      long flowRows = flowRows(layout);
      assertNotFound(get(running, SHOP_A, "/v1/payment-flows/" + past), "flow_not_found");
      assertNotFound(
          post(running, SHOP_A, "/v1/payment-flows/" + past + "/cancel", "", null),
          "flow_not_found");
      assertNotFound(
          post(
              running,
              SHOP_A,
              "/v1/payment-flows/" + past + "/refunds",
              "{\"amount\":100,\"reason\":\"past the layout\"}",
              "refund-past"),
          "flow_not_found");
      assertNotFound(
          get(running, SHOP_A, "/v1/payment-flows/" + past + "/refunds"), "flow_not_found");
      assertNotFound(get(running, SHOP_A, "/v1/refunds/" + past), "refund_not_found");
      assertNotFound(ops(running, "/ops/review/flows/" + past), "flow_not_found");
      assertNotFound(ops(running, "/ops/console/channels/orders/" + pastTrade), "order_not_found");
      // A number of another form (no flow id in it) names no shard either: no such order.
      assertNotFound(ops(running, "/ops/console/channels/orders/legacy_42"), "order_not_found");
      assertNotFound(
          post(
              running,
              OPERATOR,
              "/ops/review/flows/" + past + "/commands",
              "{\"kind\":\"FORCE_REFUND\",\"ticket\":\"T-2\",\"reason\":\"dispute\","
                  + "\"evidence\":\"mail 43\"}",
              null),
          "not_found");
      assertThat(flowRows(layout)).as("rows after the lookups past the layout").isEqualTo(flowRows);

      // A refund goes through on the payment's shard.
      HttpResponse<String> refund =
          post(
              running,
              SHOP_A,
              "/v1/payment-flows/" + flows.get(1) + "/refunds",
              "{\"amount\":400,\"reason\":\"damaged on arrival\"}",
              "refund-1");
      assertThat(refund.statusCode()).as(refund.body()).isEqualTo(201);
      long refundId = JSON.readTree(refund.body()).get("refundId").longValue();
      assertThat(awaitRefund(running, refundId)).isEqualTo("SUCCESS");

      // A confirmed charge is not cancelled: its money goes back through a refund.
      HttpResponse<String> cancel =
          post(running, SHOP_A, "/v1/payment-flows/" + flows.get(2) + "/cancel", "", null);
      assertThat(cancel.statusCode()).isEqualTo(409);
      assertThat(cancel.body()).contains("cancel_not_possible");

      // The ops console's counts and lists cover every shard, each row once.
      HttpResponse<String> console = ops(running, "/ops/console/summary");
      assertThat(console.statusCode()).as(console.body()).isEqualTo(200);
      JsonNode summary = JSON.readTree(console.body());
      assertThat(summary.get("flowsByStatus").get("BIZ_SUCCESS").longValue()).isEqualTo(5);
      assertThat(summary.get("refundsByStatus").get("SUCCESS").longValue()).isEqualTo(1);
      HttpResponse<String> page = ops(running, "/ops/console/transitions?limit=100");
      assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
      JsonNode transitions = JSON.readTree(page.body()).get("items");
      Set<Long> transitionIds = new HashSet<>();
      Set<Long> transitionFlows = new HashSet<>();
      for (JsonNode t : transitions) {
        assertThat(transitionIds.add(t.get("entry").get("id").longValue())).isTrue();
        transitionFlows.add(t.get("flowId").longValue());
        String expected = t.get("flowId").longValue() == other ? "shopb" : "shopa";
        assertThat(t.get("merchantId").stringValue()).isEqualTo(expected);
      }
      assertThat(transitionFlows).containsAll(flows).contains(other);
      assertThat(ops(running, "/ops/console/abnormal-refunds").statusCode()).isEqualTo(200);
      HttpResponse<String> queue = ops(running, "/ops/review/flows");
      assertThat(queue.statusCode()).as(queue.body()).isEqualTo(200);
      assertThat(JSON.readTree(queue.body()).get("items").isEmpty()).isTrue();

      // A person's proposal reads the flow locked on its shard, then refuses what its state
      // does not allow.
      HttpResponse<String> proposal =
          post(
              running,
              OPERATOR,
              "/ops/review/flows/" + flows.get(3) + "/commands",
              "{\"kind\":\"FORCE_REFUND\",\"ticket\":\"T-1\",\"reason\":\"dispute\","
                  + "\"evidence\":\"mail 42\"}",
              null);
      assertThat(proposal.statusCode()).as(proposal.body()).isEqualTo(409);
      assertThat(proposal.body()).contains("command_not_applicable");

      // Reconciliation runs on the sharded layout. A run asked for over HTTP first downloads the
      // wallet's own statement of the day and imports it (the file in force from then on), then
      // reads the payments of every shard. The wallet's terms are in CNY (the default) and the
      // payments in EUR: each payment of the day, on whichever shard, is a difference.
      LocalDate today = LocalDate.now(ZoneOffset.UTC);
      HttpResponse<String> recon =
          post(
              running,
              OPERATOR,
              "/ops/reconciliation/runs",
              "{\"account\":\"wallet\",\"date\":\"" + today + "\"}",
              null);
      assertThat(recon.statusCode()).as(recon.body()).isEqualTo(200);
      JsonNode outcome = JSON.readTree(recon.body());
      System.out.println("sharded serve reconciliation run: " + recon.body());
      assertThat(outcome.path("statement").path("status").stringValue())
          .as(recon.body())
          .isEqualTo("IMPORTED");
      JsonNode run = outcome.get("run");
      assertThat(run.get("status").stringValue()).as(recon.body()).isEqualTo("DONE");
      assertThat(run.get("counts").get("newDifferences").longValue()).isPositive();
      List<String> found = differences(running);
      List<Integer> users = List.of(7, 14, 21, 28);
      for (int i = 0; i < flows.size(); i++) {
        String number = OrderNumbers.derive(users.get(i), flows.get(i)).tradeOrderNo();
        assertThat(found)
            .as("the payment of shard %d", ShardKeys.ofId(flows.get(i)))
            .anyMatch(d -> d.endsWith(" " + number));
      }

      // A corrected file imported by hand supersedes the downloaded one; reconciled (without a
      // download, which would put the wallet's file back in force), its foreign line and its line
      // whose number names a shard past the layout match nothing local.
      String trade = OrderNumbers.derive(7, flows.get(0)).tradeOrderNo();
      String file =
          "kind,order_no,trade_order_no,amount,currency,at\n"
              + ("charge," + trade + "," + trade + ",1500,EUR," + Instant.now() + "\n")
              + ("charge,T-foreign-1,T-foreign-1,990,EUR," + Instant.now() + "\n")
              + ("charge," + pastTrade + "," + pastTrade + ",990,EUR," + Instant.now() + "\n");
      StatementFileRecord imported =
          running
              .context()
              .getBean(StatementImporter.class)
              .importStatement(
                  "wallet",
                  today,
                  Statement.unhashed(
                      StatementFormat.WALLET_CSV, file.getBytes(StandardCharsets.UTF_8)));
      assertThat(imported.status()).isEqualTo(StatementFileRecord.Status.IMPORTED);
      long rowsBefore = flowRows(layout);
      assertThat(
              running
                  .context()
                  .getBean(ReconSteps.Reconcile.class)
                  .reconcile("wallet", today)
                  .map(r -> r.status().name()))
          .contains("DONE");
      assertThat(differences(running))
          .contains("UNKNOWN_STATEMENT_LINE T-foreign-1", "UNKNOWN_STATEMENT_LINE " + pastTrade);
      assertThat(flowRows(layout)).isEqualTo(rowsBefore);

      // The wallet's callbacks were taken in (the inbox lives on the first database).
      assertThat(layout.physicalCount(0, "SELECT count(*) FROM callback_inbox")).isPositive();
    }
  }

  @Test
  void theFlowGaugesCountOpenFlowsOfEveryShard() throws Exception {
    ShardedTestLayout layout =
        ShardedTestLayout.fresh(
            Path.of("..", "deploy", "sharding", "clearway-mariadb.yaml"),
            "clearway_shgauge",
            false);
    Instant t0 = Instant.parse("2026-12-01T00:00:00Z");
    Set<Integer> shards = new HashSet<>();
    try (Database db = ChaosDatabase.open(layout.url(), 4)) {
      JdbcFlowStore store = db.flowStore();
      for (long user = 1; user <= 8; user++) {
        NewPayment payment =
            new NewPayment(
                new GoalKey("m1", user, "renew", "g" + user), 100, "EUR", t0.plusSeconds(3600));
        long id = store.createAttempt(payment, new Lease("creator", t0), t0).flow().id();
        shards.add(ShardKeys.ofId(id));
      }
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      Clock clock = Clock.fixed(t0.plusSeconds(90), ZoneOffset.UTC);
      try (FlowStateGauges gauges = new FlowStateGauges(db.dataSource(), registry, clock, 60_000)) {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        double open = 0;
        while (System.nanoTime() < deadline && open < 8) {
          Thread.sleep(100);
          open = registry.get("clearway.flows.open").tag("state", "WAIT_PAY").gauge().value();
        }
        assertThat(open).isEqualTo(8);
        assertThat(
                registry
                    .get("clearway.flows.oldest.age.seconds")
                    .tag("state", "WAIT_PAY")
                    .gauge()
                    .value())
            .isEqualTo(90);
      }
    }
    assertThat(shards).hasSizeGreaterThan(1);
  }

  /** The wallet's differences, newest first, each as its class and trade order number. */
  private List<String> differences(Serve.Running running) throws Exception {
    HttpResponse<String> page =
        ops(running, "/ops/reconciliation/differences?account=wallet&limit=100");
    assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
    List<String> found = new ArrayList<>();
    for (JsonNode d : JSON.readTree(page.body()).get("items")) {
      found.add(d.get("kind").stringValue() + " " + d.get("tradeOrderNo").stringValue());
    }
    return found;
  }

  private static void assertNotFound(HttpResponse<String> response, String code) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(404);
    assertThat(response.body()).contains("\"" + code + "\"");
  }

  /** The rows of the flows' and refunds' physical tables on both databases. */
  private static long flowRows(ShardedTestLayout layout) {
    long rows = 0;
    for (int d = 0; d < 2; d++) {
      for (String table : List.of("pay_flow_fact", "pay_flow_state", "refund_order")) {
        for (int t = 0; t < 2; t++) {
          rows += layout.physicalCount(d, "SELECT count(*) FROM " + table + "_" + t);
        }
      }
    }
    return rows;
  }

  private static Serve.Options options(String jdbcUrl) {
    return Serve.Options.defaults()
        .withPort(0)
        .withJdbcUrl(jdbcUrl)
        .withProperties(
            Map.of(
                "clearway.keys.merchant",
                "shopa=" + SHOP_A + ",shopb=" + SHOP_B,
                "clearway.keys.operator",
                "ops=" + OPERATOR,
                "clearway.keys.approver",
                "apr=" + APPROVER,
                "clearway.timing",
                "compressed"));
  }

  /** Creates a payment; its flow id. */
  private long pay(Serve.Running running, String key, int userId, String bizKey) throws Exception {
    String body =
        "{\"userId\":"
            + userId
            + ",\"scene\":\"renew\",\"bizKey\":\""
            + bizKey
            + "\",\"amount\":1500,\"currency\":\"EUR\",\"bizDeadline\":\""
            + Instant.now().plusSeconds(120)
            + "\"}";
    HttpResponse<String> created = post(running, key, "/v1/payments", body, bizKey);
    assertThat(created.statusCode()).as(created.body()).isIn(200, 201, 202);
    return JSON.readTree(created.body()).get("flowId").longValue();
  }

  private String awaitStatus(Serve.Running running, String key, long flowId) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String status = "";
    while (System.nanoTime() < deadline && !"BIZ_SUCCESS".equals(status)) {
      Thread.sleep(200);
      HttpResponse<String> r = get(running, key, "/v1/payment-flows/" + flowId);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      status = JSON.readTree(r.body()).get("status").stringValue();
    }
    return status;
  }

  private String awaitRefund(Serve.Running running, long refundId) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String status = "";
    while (System.nanoTime() < deadline && !"SUCCESS".equals(status)) {
      Thread.sleep(200);
      HttpResponse<String> r = get(running, SHOP_A, "/v1/refunds/" + refundId);
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      status = JSON.readTree(r.body()).get("status").stringValue();
    }
    return status;
  }

  private HttpResponse<String> ops(Serve.Running running, String path) throws Exception {
    return get(running, OPERATOR, path);
  }

  private HttpResponse<String> get(Serve.Running running, String key, String path)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.port() + path))
            .header("Authorization", "Bearer " + key)
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(
      Serve.Running running, String key, String path, String body, String idempotencyKey)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + running.port() + path))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
