package dev.clearway.service.review;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
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
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A running service for manual-command tests: real HTTP, the embedded PostgreSQL, a simulated
 * wallet and business, and keys for two operators and two approvers (Alice holds both roles).
 */
final class OpsRig implements AutoCloseable {
  static final String OPERATOR_ALICE = "op-alice-key-5d1f9b";
  static final String APPROVER_ALICE = "ap-alice-key-8c2e4a";
  static final String APPROVER_BOB = "ap-bob-key-3f7a1e0c";
  static final String MERCHANT = "merchant-key-6b9d2c";

  final SimWallet wallet;
  private final ConfigurableApplicationContext context;
  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  OpsRig() {
    this(new SimWallet(FaultPlan.none(), Clock.systemUTC()), Map.of());
  }

  /**
   * A service that pays through the channel layer: {@code beans} declare the channel accounts and
   * their adapters (no wallet).
   */
  static OpsRig withChannels(Map<String, Object> beans) {
    return new OpsRig(null, beans);
  }

  private OpsRig(SimWallet wallet, Map<String, Object> beans) {
    Clock clock = Clock.systemUTC();
    this.wallet = wallet;
    ServiceBoot boot =
        new ServiceBoot()
            .keys(
                MERCHANT,
                "Alice=" + OPERATOR_ALICE,
                "alice=" + APPROVER_ALICE + ",bob=" + APPROVER_BOB)
            .clock(clock);
    if (wallet != null) {
      boot.wallet(wallet);
    }
    context = boot.beans(beans).start();
    base = ServiceBoot.base(context);
  }

  @Override
  public void close() {
    context.close();
  }

  /** Empties the flow, refund, channel and command tables. */
  static void reset() throws Exception {
    TestDatabase.get().reset();
    TestDatabase.get()
        .truncate(
            "manual_command",
            "manual_audit",
            "refund_order_history",
            "attempt_compensation",
            "recovery_task",
            "payment_attempt_history",
            "provider_evidence",
            "channel_refund",
            "payment_attempt",
            "payment_order",
            "channel_account");
  }

  HttpResponse<String> call(String method, String path, String key, String json) throws Exception {
    return call(method, path, key, json, null);
  }

  /** A call with an Idempotency-Key header (when not null). */
  HttpResponse<String> call(String method, String path, String key, String json, String idemKey)
      throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path));
    if (idemKey != null) {
      b.header("Idempotency-Key", idemKey);
    }
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

  static long commandId(String json) {
    int i = json.indexOf("\"id\":") + 5;
    int j = i;
    while (Character.isDigit(json.charAt(j))) {
      j++;
    }
    return Long.parseLong(json.substring(i, j));
  }

  static void sql(String statements) throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection()) {
      TestSql.executeEach(c, TestSql.withIntervals(statements));
    }
  }

  static String text(String query) throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection()) {
      return TestSql.text(c, query);
    }
  }

  static void await(BooleanSupplier done) throws InterruptedException {
    Instant giveUp = Instant.now().plusSeconds(10);
    while (!done.getAsBoolean() && Instant.now().isBefore(giveUp)) {
      Thread.sleep(50);
    }
  }

  /** A new flow moved to {@code to} along legal edges, held by a test lease for a minute. */
  static PayFlow flowIn(String bizKey, FlowStatus... path) {
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
                new Lease("test-holder", now.plusSeconds(60)),
                now)
            .flow();
    for (FlowStatus to : path) {
      flow = move(store, flow, to);
    }
    return flow;
  }

  static PayFlow frozen(PayFlow flow) {
    JdbcFlowStore store = TestDatabase.get().store();
    store.freeze(flow.id(), flow.leaseOwner(), "CAS_CONTRADICTION", Instant.now());
    return store.find(flow.id()).orElseThrow();
  }

  static PayFlow find(long flowId) {
    return TestDatabase.get().store().find(flowId).orElseThrow();
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
}
