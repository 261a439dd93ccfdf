package dev.clearway.lab.channel;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.StaticRecoveryPolicies;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelHealth;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.SimPsp;
import dev.clearway.sim.psp.wechat.Payer;
import dev.clearway.sim.psp.wechat.PayerChoice;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.testing.TestDatabase;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A replayed signed webhook (the same provider event id, a valid signature) is answered {@code
 * duplicate} before any work: no PSP call, counted at the simulator, and no recording.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class WebhookReplayTest {
  private static final long STRIPE = 41;
  private static final long WECHAT = 42;

  private final ChannelStores store =
      JdbcChannelStores.create(TestDatabase.get().dataSource(), TestDatabase.get().dialect());
  private final Capture capture = new Capture();
  private SimChannels sims;
  private ChannelWebhookIntake intake;
  private ChannelGateway gateway;

  @BeforeEach
  void clean() throws Exception {
    TestDatabase.get().reset();
    TestDatabase.get().truncateChannelTables();
  }

  @AfterEach
  void stop() {
    if (sims != null) {
      sims.close();
    }
    capture.close();
  }

  private void start(SimChannels.AccountSpec spec, String channel, String method) {
    sims = new SimChannels(store, List.of(spec), Duration.ofMillis(50), Duration.ofSeconds(2));
    sims.sim(spec.id()).webhookTarget(capture.url());
    ChannelContext ctx =
        new ChannelContext(
            store,
            sims::adapter,
            ChannelHealth.ALWAYS,
            new StaticRecoveryPolicies(
                new RecoveryPolicy(
                    "replay",
                    List.of(
                        new PolicyRule(
                            new RuleMatch(channel, method, Operation.CREATE),
                            List.of(RecoveryStrategy.RETRIEVE),
                            List.of(Duration.ofSeconds(1)),
                            Duration.ofMinutes(5),
                            100,
                            4)))),
            new PacedRateLimiter(),
            ChannelEvents.NONE,
            Clock.systemUTC(),
            trade -> {},
            Duration.ofSeconds(3));
    intake = new ChannelWebhookIntake(ctx);
    gateway = new ChannelGateway(ctx, PaymentMethods.fixed(method, "pm_card_visa"));
  }

  @Test
  void aReplayedStripeWebhookMakesNoPspCall() throws Exception {
    // Every create answers "unavailable" but charges: the attempt is FAILED, and the webhook that
    // the charge succeeded is confirmed by a retrieve (a PSP call), then compensated.
    start(
        new SimChannels.AccountSpec(STRIPE, "psp:s", 1, new PspFaults(3).lieRate(1.0)),
        "stripe",
        "card");
    gateway.pay(new ChargeRequest("t_replay_s", 16, 1_000, "EUR"));
    Attempt attempt = store.attempts().attempts("t_replay_s").get(0);
    assertThat(attempt.status()).isEqualTo(AttemptStatus.FAILED);
    Capture.Delivery succeeded = capture.await(d -> d.body().contains("payment_intent.succeeded"));
    SimPsp sim = sims.sim(STRIPE);

    long before = sim.queries().total();
    assertThat(intake.accept(STRIPE, succeeded.headers(), succeeded.bodyBytes()).code())
        .isEqualTo("confirmed");
    assertThat(sim.queries().total()).as("the first delivery retrieves").isEqualTo(before + 1);
    long evidence = count("SELECT count(*) FROM provider_evidence");

    for (int i = 0; i < 3; i++) {
      assertThat(intake.accept(STRIPE, succeeded.headers(), succeeded.bodyBytes()).code())
          .isEqualTo("duplicate");
    }

    assertThat(sim.queries().total()).as("no PSP call for a replay").isEqualTo(before + 1);
    assertThat(count("SELECT count(*) FROM provider_evidence")).isEqualTo(evidence);
    assertThat(count("SELECT count(*) FROM attempt_compensation")).isEqualTo(1);
  }

  @Test
  void aReplayedWechatNotificationRecordsNothing() throws Exception {
    start(
        SimChannels.AccountSpec.wechat(
            WECHAT,
            "psp:w",
            1,
            PspFaults.none(),
            new SimChannels.WechatCustomer(PayerChoice.always(Payer.PAYS), Duration.ofMillis(200))),
        "wechat",
        "wallet");
    gateway.pay(new ChargeRequest("t_replay_w", 16, 1_000, "CNY"));
    Capture.Delivery paid = capture.await(d -> true);
    SimPsp sim = sims.sim(WECHAT);

    long queries = sim.queries().total();
    assertThat(intake.accept(WECHAT, paid.headers(), paid.bodyBytes()).code())
        .isEqualTo("recorded");
    long evidence = count("SELECT count(*) FROM provider_evidence");
    long history = count("SELECT count(*) FROM payment_attempt_history");
    assertThat(store.attempts().attempts("t_replay_w").get(0).status())
        .isEqualTo(AttemptStatus.SUCCEEDED);

    assertThat(intake.accept(WECHAT, paid.headers(), paid.bodyBytes()).code())
        .isEqualTo("duplicate");

    assertThat(count("SELECT count(*) FROM provider_evidence")).isEqualTo(evidence);
    assertThat(count("SELECT count(*) FROM payment_attempt_history")).isEqualTo(history);
    assertThat(sim.queries().total()).isEqualTo(queries);
  }

  private static long count(String sql) throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** Receives the simulators' webhooks over HTTP, answers 200 and keeps them for the test. */
  private static final class Capture implements AutoCloseable {
    record Delivery(Map<String, String> headers, String body) {
      byte[] bodyBytes() {
        return body.getBytes(StandardCharsets.UTF_8);
      }
    }

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final HttpServer server;

    Capture() {
      try {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      server.createContext(
          "/",
          exchange -> {
            try (exchange) {
              Map<String, String> headers = new HashMap<>();
              exchange
                  .getRequestHeaders()
                  .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.get(0)));
              String body =
                  new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
              deliveries.add(new Delivery(headers, body));
              exchange.sendResponseHeaders(200, -1);
            }
          });
      server.start();
    }

    URI url() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hooks");
    }

    Delivery await(Predicate<Delivery> wanted) throws InterruptedException {
      Instant giveUp = Instant.now().plusSeconds(10);
      while (Instant.now().isBefore(giveUp)) {
        for (Delivery d : deliveries) {
          if (wanted.test(d)) {
            return d;
          }
        }
        Thread.sleep(20);
      }
      throw new AssertionError("no such webhook arrived; got " + deliveries.size());
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
