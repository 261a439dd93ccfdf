package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.testkit.ServiceBoot;
import dev.clearway.store.testing.TestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real service (ClearwayServer: Tomcat on a free port, the engine, the payment API, the refund
 * engine and API) over the JVM-wide embedded PostgreSQL, with the simulated wallet behind {@link
 * RefundTrackingWallet} and the simulated business service, spoken to over real HTTP.
 */
final class RefundHttpService implements AutoCloseable {
  static final String MERCHANT_KEY = "mk_refund_5c1e9a7b3d2f4e6a8b0c";
  static final String OPERATOR_KEY = "ok_refund_2b4d6f8a0c1e3a5c7e9b";
  static final String APPROVER_KEY = "ak_refund_9e8d7c6b5a4f3e2d1c0b";
  static final JsonMapper JSON = JsonMapper.builder().build();

  private final ConfigurableApplicationContext context;
  private final HttpClient http;
  private final int port;
  final RefundTrackingWallet wallet;

  private RefundHttpService(ConfigurableApplicationContext context, RefundTrackingWallet wallet) {
    this.context = context;
    this.wallet = wallet;
    this.port = ServiceBoot.port(context);
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  /** Starts the service; {@code extra} are further {@code name=value} properties. */
  static RefundHttpService start(String... extra) {
    Clock clock = Clock.systemUTC();
    RefundTrackingWallet wallet = new RefundTrackingWallet(clock);
    ConfigurableApplicationContext context =
        new ServiceBoot()
            .keys(MERCHANT_KEY, "olivia=" + OPERATOR_KEY, "aaron=" + APPROVER_KEY)
            .properties(
                "clearway.workers=4",
                "clearway.refunds.workers=4",
                "clearway.api.sync-budget=800ms",
                "clearway.api.max-amount=1000000")
            .properties(extra)
            .clock(clock)
            .wallet(wallet)
            .start();
    return new RefundHttpService(context, wallet);
  }

  @Override
  public void close() {
    context.close();
  }

  <T> java.util.Map<String, T> beans(Class<T> type) {
    return context.getBeansOfType(type);
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  // ---- database ---------------------------------------------------------------------------

  static void resetDatabase() {
    TestDatabase.get().reset();
    TestDatabase.get()
        .truncate("refund_order_history", "refund_order", "idempotency_key", "outbox_event");
  }

  static void execute(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  static long count(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** Rows of the two refund tables. */
  record RefundRows(long refunds, long history) {}

  static RefundRows refundRows() {
    return new RefundRows(
        count("SELECT count(*) FROM refund_order"),
        count("SELECT count(*) FROM refund_order_history"));
  }

  // ---- HTTP -------------------------------------------------------------------------------

  /** One HTTP answer. */
  record Answer(int status, HttpResponse<String> raw) {
    JsonNode json() {
      return JSON.readTree(raw.body());
    }

    String text(String field) {
      JsonNode node = json().get(field);
      return node == null || node.isNull() ? null : node.asString();
    }

    long number(String field) {
      return json().get(field).asLong();
    }

    String code() {
      return text("code");
    }

    Optional<String> header(String name) {
      return raw.headers().firstValue(name);
    }

    @Override
    public String toString() {
      return status + " " + raw.body();
    }
  }

  Answer send(String method, String path, String key, String idempotencyKey, String body) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .timeout(Duration.ofSeconds(20))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (key != null) {
      b.header("Authorization", "Bearer " + key);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    if (idempotencyKey != null) {
      b.header("Idempotency-Key", idempotencyKey);
    }
    try {
      HttpResponse<String> r =
          http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return new Answer(r.statusCode(), r);
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + path, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** POST /v1/payments as the merchant; returns the flow resource. */
  Answer pay(long userId, String bizKey, long amount) {
    String body =
        """
        {"userId": %d, "scene": "renewal", "bizKey": "%s", "amount": %d, "currency": "CNY",
         "bizDeadline": "%s"}
        """
            .formatted(
                userId,
                bizKey,
                amount,
                Instant.now().plus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.SECONDS));
    return send("POST", "/v1/payments", MERCHANT_KEY, "pay-" + bizKey, body);
  }

  /** A payment that reached BIZ_SUCCESS synchronously; returns its flow resource. */
  Answer paidFlow(long userId, String bizKey, long amount) {
    Answer flow = pay(userId, bizKey, amount);
    assertThat(flow.status()).as("%s", flow).isEqualTo(201);
    assertThat(flow.text("status")).as("%s", flow).isEqualTo("BIZ_SUCCESS");
    return flow;
  }

  Answer refund(long flowId, String idempotencyKey, String body) {
    return send(
        "POST", "/v1/payment-flows/" + flowId + "/refunds", MERCHANT_KEY, idempotencyKey, body);
  }

  Answer refund(long flowId, String idempotencyKey, long amount, String reason) {
    return refund(
        flowId, idempotencyKey, "{\"amount\": %d, \"reason\": \"%s\"}".formatted(amount, reason));
  }

  Answer get(String path) {
    return send("GET", path, MERCHANT_KEY, null, null);
  }

  /** Polls GET /v1/refunds/{id} until its status is {@code status}. */
  Answer awaitRefund(long refundId, String status, Duration within) throws InterruptedException {
    Instant giveUp = Instant.now().plus(within);
    Answer last = get("/v1/refunds/" + refundId);
    while (!status.equals(last.text("status")) && Instant.now().isBefore(giveUp)) {
      Thread.sleep(25);
      last = get("/v1/refunds/" + refundId);
    }
    assertThat(last.text("status")).as("refund %d: %s", refundId, last).isEqualTo(status);
    return last;
  }
}
