package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.service.testkit.ServiceBoot;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.io.ByteArrayInputStream;
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
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The real service (Spring Boot, Tomcat on a free port, the engine, the payment API) over the
 * JVM-wide embedded PostgreSQL, with a gated simulated wallet and the simulated business service,
 * spoken to over real HTTP. One per test class.
 */
final class RunningApi implements AutoCloseable {
  static final String MERCHANT_KEY = "mk_test_3f9a1c7e5b2d4a6f8e0c";
  static final String OPERATOR_KEY = "ok_test_8d2e4f6a0b1c3d5e7f9a";
  static final String APPROVER_KEY = "ak_test_1a2b3c4d5e6f7a8b9c0d";

  static final JsonMapper JSON = JsonMapper.builder().build();

  private final ConfigurableApplicationContext context;
  private final int port;
  private final HttpClient http;
  final GatedWallet wallet;
  final SimBusiness business;

  private RunningApi(
      ConfigurableApplicationContext context, GatedWallet wallet, SimBusiness business) {
    this.context = context;
    this.wallet = wallet;
    this.business = business;
    this.port = ServiceBoot.port(context);
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
  }

  /** Starts the service; {@code extra} are further {@code name=value} properties. */
  static RunningApi start(String... extra) {
    return start(UnaryOperator.identity(), extra);
  }

  /** Starts the service over {@code wrap} of the shared pool (to observe the queries it runs). */
  static RunningApi start(UnaryOperator<DataSource> wrap, String... extra) {
    return start(wrap, Map.of(), extra);
  }

  /** Starts the service with further beans (by name), e.g. a policy registry. */
  static RunningApi startWith(Map<String, Object> beans, String... extra) {
    return start(UnaryOperator.identity(), beans, extra);
  }

  /**
   * Starts the service with the channel layer: {@code beans} declare the channel accounts and their
   * adapters; no wallet bean, so the engine pays through the channel layer's gateway.
   */
  static RunningApi startChannels(Map<String, Object> beans, String... extra) {
    return start(UnaryOperator.identity(), beans, null, extra);
  }

  private static RunningApi start(
      UnaryOperator<DataSource> wrap, Map<String, Object> beans, String... extra) {
    return start(wrap, beans, new GatedWallet(Clock.systemUTC()), extra);
  }

  private static RunningApi start(
      UnaryOperator<DataSource> wrap,
      Map<String, Object> beans,
      GatedWallet wallet,
      String... extra) {
    Clock clock = Clock.systemUTC();
    SimBusiness business = new SimBusiness(FaultPlan.none(), clock);
    ServiceBoot boot =
        new ServiceBoot()
            .keys(MERCHANT_KEY, "olivia=" + OPERATOR_KEY, "aaron=" + APPROVER_KEY)
            .properties(
                "clearway.workers=4",
                "clearway.api.sync-budget=800ms",
                "clearway.api.max-amount=1000000")
            .properties(extra)
            .dataSource(wrap.apply(TestDatabase.get().dataSource()))
            .clock(clock)
            .business(business);
    if (wallet != null) {
      boot.wallet(wallet);
    }
    ConfigurableApplicationContext context = boot.beans(beans).start();
    return new RunningApi(context, wallet, business);
  }

  @Override
  public void close() {
    if (wallet != null) {
      wallet.releaseAll();
    }
    context.close();
  }

  // ---- database ---------------------------------------------------------------------------

  /** Empties pay_flow, pay_flow_history and idempotency_key. */
  static void resetDatabase() {
    TestDatabase.get().reset();
    TestDatabase.get().truncate("idempotency_key");
  }

  /**
   * Runs statements, each ended by a semicolon at the end of a line; their interval literals
   * written for the database under test ({@link TestSql#withIntervals}).
   */
  static void execute(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection()) {
      TestSql.executeEach(c, TestSql.withIntervals(sql));
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  /** Plants flows with raw SQL: {@link TestSql#insertFlows}. */
  static void insertFlows(String columns, String select) {
    try (Connection c = TestDatabase.get().dataSource().getConnection()) {
      TestSql.insertFlows(c, columns, select);
    } catch (SQLException e) {
      throw new IllegalStateException(select, e);
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

  /** Row counts of the three tables a payment request may write. */
  record Rows(long payFlow, long history, long idempotencyKeys) {}

  static Rows rows() {
    return new Rows(
        count("SELECT count(*) FROM pay_flow"),
        count("SELECT count(*) FROM pay_flow_history"),
        count("SELECT count(*) FROM idempotency_key"));
  }

  // ---- HTTP -------------------------------------------------------------------------------

  /** One HTTP answer. */
  record Answer(int status, HttpResponse<String> raw) {
    String body() {
      return raw.body();
    }

    Optional<String> header(String name) {
      return raw.headers().firstValue(name);
    }

    JsonNode json() {
      return JSON.readTree(raw.body());
    }

    String text(String field) {
      JsonNode node = json().get(field);
      return node == null || node.isNull() ? null : node.asString();
    }

    long flowId() {
      return json().get("flowId").asLong();
    }

    String clientStatus() {
      return text("status");
    }

    String code() {
      return text("code");
    }

    @Override
    public String toString() {
      return status + " " + raw.body();
    }
  }

  <T> T bean(Class<T> type) {
    return context.getBean(type);
  }

  /** The Spring context, e.g. to close it without releasing the wallet's gates first. */
  ConfigurableApplicationContext context() {
    return context;
  }

  String baseUrl() {
    return "http://localhost:" + port;
  }

  Call call(String method, String path) {
    return new Call(method, path);
  }

  Call post(String path) {
    return call("POST", path).bearer(MERCHANT_KEY).contentType("application/json");
  }

  Call get(String path) {
    return call("GET", path).bearer(MERCHANT_KEY);
  }

  /** POST /v1/payments as the merchant. */
  Answer pay(String idempotencyKey, Payment payment) {
    return post("/v1/payments").idempotencyKey(idempotencyKey).body(payment.json()).send();
  }

  Answer flow(long flowId) {
    return get("/v1/payment-flows/" + flowId).send();
  }

  /** Polls the flow until its client status is {@code status}; fails after {@code within}. */
  Answer awaitStatus(long flowId, String status, Duration within) throws InterruptedException {
    return awaitStatusAs(MERCHANT_KEY, flowId, status, within);
  }

  /** {@link #awaitStatus} with the key of the merchant that owns the flow. */
  Answer awaitStatusAs(String merchantKey, long flowId, String status, Duration within)
      throws InterruptedException {
    Instant giveUp = Instant.now().plus(within);
    String path = "/v1/payment-flows/" + flowId;
    Answer last = call("GET", path).bearer(merchantKey).send();
    while (!status.equals(last.clientStatus()) && Instant.now().isBefore(giveUp)) {
      Thread.sleep(25);
      last = call("GET", path).bearer(merchantKey).send();
    }
    assertThat(last.clientStatus()).as("status of flow %d: %s", flowId, last).isEqualTo(status);
    return last;
  }

  /** A request under construction. */
  final class Call {
    private final String method;
    private final String path;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private HttpRequest.BodyPublisher body = HttpRequest.BodyPublishers.noBody();

    private Call(String method, String path) {
      this.method = method;
      this.path = path;
    }

    Call header(String name, String value) {
      headers.put(name, value);
      return this;
    }

    Call without(String name) {
      headers.remove(name);
      return this;
    }

    Call bearer(String key) {
      return header("Authorization", "Bearer " + key);
    }

    Call contentType(String type) {
      return header("Content-Type", type);
    }

    Call idempotencyKey(String key) {
      return header("Idempotency-Key", key);
    }

    Call body(String json) {
      body = HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8);
      return this;
    }

    /** The body without a declared length: sent with Transfer-Encoding: chunked. */
    Call chunkedBody(byte[] bytes) {
      body = HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes));
      return this;
    }

    Answer send() {
      HttpRequest.Builder builder =
          HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
              .timeout(Duration.ofSeconds(20))
              .method(method, body);
      headers.forEach(builder::header);
      try {
        HttpResponse<String> response =
            http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(response.statusCode(), response);
      } catch (IOException e) {
        throw new UncheckedIOException(method + " " + path, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  // ---- payment bodies ---------------------------------------------------------------------

  /** The body of POST /v1/payments; {@code null} fields are left out of the JSON. */
  record Payment(
      Long userId, String scene, String bizKey, Long amount, String currency, String bizDeadline) {

    static Payment of(long userId, String bizKey) {
      return new Payment(
          userId,
          "renewal",
          bizKey,
          990L,
          "CNY",
          Instant.now().plus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.SECONDS).toString());
    }

    Payment withUserId(Long v) {
      return new Payment(v, scene, bizKey, amount, currency, bizDeadline);
    }

    Payment withScene(String v) {
      return new Payment(userId, v, bizKey, amount, currency, bizDeadline);
    }

    Payment withBizKey(String v) {
      return new Payment(userId, scene, v, amount, currency, bizDeadline);
    }

    Payment withAmount(Long v) {
      return new Payment(userId, scene, bizKey, v, currency, bizDeadline);
    }

    Payment withCurrency(String v) {
      return new Payment(userId, scene, bizKey, amount, v, bizDeadline);
    }

    Payment withDeadline(String v) {
      return new Payment(userId, scene, bizKey, amount, currency, v);
    }

    String json() {
      ObjectNode node = JSON.createObjectNode();
      if (userId != null) {
        node.put("userId", userId);
      }
      if (scene != null) {
        node.put("scene", scene);
      }
      if (bizKey != null) {
        node.put("bizKey", bizKey);
      }
      if (amount != null) {
        node.put("amount", amount);
      }
      if (currency != null) {
        node.put("currency", currency);
      }
      if (bizDeadline != null) {
        node.put("bizDeadline", bizDeadline);
      }
      return JSON.writeValueAsString(node);
    }
  }
}
