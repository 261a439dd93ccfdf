package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.clearway.store.testing.TestDatabase;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The gray migration with the legacy payment store asked over real HTTP (a stub legacy service in
 * this JVM): a non-terminal legacy payment hands the goal back naming its reference, a clear answer
 * lets the attempt be created, and a store that is slow, stalls its body or answers 5xx is unknown:
 * 503 {@code legacy_unknown} and nothing written. Hand-backs and unknowns are counted.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class MigrationLegacyHttpTest {
  private static final Duration PROBE_TIMEOUT = Duration.ofMillis(1_500);
  private static final Duration STUB_DELAY = Duration.ofSeconds(8);

  /** What the stub answers for a bizKey. */
  enum Mode {
    IN_FLIGHT,
    CLEAR,
    SLOW,
    STALLED_BODY,
    SERVER_ERROR
  }

  private static final Map<String, Mode> MODES = new ConcurrentHashMap<>();
  private static final List<Map<String, String>> ASKED = new CopyOnWriteArrayList<>();
  private static HttpServer stub;
  private static ExecutorService stubThreads;
  private static RunningApi node;

  @BeforeAll
  static void start() throws IOException {
    stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    stubThreads = Executors.newCachedThreadPool();
    stub.setExecutor(stubThreads);
    stub.createContext("/legacy/payments", MigrationLegacyHttpTest::answer);
    stub.start();
    node =
        RunningApi.start(
            "clearway.instance-id=migration-http",
            "clearway.migration.enabled=true",
            "clearway.migration.rollout-basis-points=10000",
            "clearway.migration.probe-timeout=" + PROBE_TIMEOUT.toMillis() + "ms",
            "clearway.migration.legacy.http-url=http://127.0.0.1:"
                + stub.getAddress().getPort()
                + "/legacy/payments?system=old");
  }

  @AfterAll
  static void stop() {
    node.close();
    stub.stop(0);
    stubThreads.shutdownNow();
  }

  @BeforeEach
  void reset() throws InterruptedException {
    RunningApi.resetDatabase();
    RunningApi.execute("UPDATE migration_switch SET rolled_back = FALSE");
    MODES.clear();
    ASKED.clear();
    Thread.sleep(1_100);
  }

  private static void answer(HttpExchange exchange) throws IOException {
    Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
    ASKED.add(query);
    Mode mode = MODES.getOrDefault(query.getOrDefault("bizKey", ""), Mode.CLEAR);
    try (exchange) {
      switch (mode) {
        case IN_FLIGHT ->
            send(
                exchange,
                200,
                "{\"inFlight\":true,\"reference\":\"LEG-" + query.get("bizKey") + "\"}");
        case CLEAR -> send(exchange, 200, "{\"inFlight\":false}");
        case SERVER_ERROR -> send(exchange, 502, "{\"error\":\"upstream\"}");
        case SLOW -> {
          pause();
          send(exchange, 200, "{\"inFlight\":false}");
        }
        case STALLED_BODY -> {
          byte[] body = "{\"inFlight\":false}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          OutputStream out = exchange.getResponseBody();
          out.write(body, 0, 2);
          out.flush();
          pause();
          out.write(body, 2, body.length - 2);
        }
      }
    } catch (IOException closedByTheProbe) {
      // The probe gave up and closed the connection.
    }
  }

  private static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }

  private static void pause() {
    try {
      Thread.sleep(STUB_DELAY.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : raw == null ? new String[0] : raw.split("&")) {
      int eq = pair.indexOf('=');
      out.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return out;
  }

  private static double metric(String series) {
    String body =
        node.call("GET", "/actuator/prometheus").bearer(RunningApi.OPERATOR_KEY).send().body();
    Matcher m =
        Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE).matcher(body);
    assertThat(m.find()).as("series %s in %s", series, body).isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void aLegacyPaymentInFlightIsHandedBackNamingItsReferenceAndCounted() {
    MODES.put("lh-1", Mode.IN_FLIGHT);
    String handBacks = "clearway_migration_handbacks_total{reason=\"legacy_store\"}";
    double before = metric(handBacks);
    RunningApi.Rows rows = RunningApi.rows();

    RunningApi.Answer paid = node.pay("lh-key-1", RunningApi.Payment.of(62001, "lh-1"));
    assertThat(paid.status()).as(paid.body()).isEqualTo(409);
    assertThat(paid.code()).isEqualTo("legacy_in_flight");
    assertThat(paid.text("legacyReference")).isEqualTo("LEG-lh-1");
    RunningApi.Answer again = node.pay("lh-key-1", RunningApi.Payment.of(62001, "lh-1"));
    assertThat(again.status()).isEqualTo(409);
    assertThat(RunningApi.rows()).isEqualTo(rows);
    assertThat(metric(handBacks) - before).isEqualTo(2.0);
    assertThat(ASKED)
        .contains(
            Map.of(
                "system", "old",
                "merchant", "default",
                "userId", "62001",
                "scene", "renewal",
                "bizKey", "lh-1"));

    // The legacy payment ended: the same key now creates the attempt.
    MODES.put("lh-1", Mode.CLEAR);
    RunningApi.Answer created = node.pay("lh-key-1", RunningApi.Payment.of(62001, "lh-1"));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
  }

  @Test
  void nothingOnTheLegacyPathCreatesTheAttempt() {
    RunningApi.Answer created = node.pay("lh-key-2", RunningApi.Payment.of(62002, "lh-2"));
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    assertThat(
            RunningApi.count(
                "SELECT count(*) FROM pay_flow WHERE merchant_id = 'default' AND user_id = 62002"))
        .isEqualTo(1);
    assertThat(ASKED).extracting(q -> q.get("bizKey")).containsExactly("lh-2");
  }

  @Test
  void aSlowStalledOrFailingLegacyStoreIsUnknownAndNothingIsWritten() {
    String unknown = "clearway_migration_unknown_total{probe=\"legacy_store\"}";
    double before = metric(unknown);
    RunningApi.Rows rows = RunningApi.rows();
    int n = 0;
    for (Mode mode : List.of(Mode.SLOW, Mode.STALLED_BODY, Mode.SERVER_ERROR)) {
      n++;
      String bizKey = "lh-unknown-" + n;
      MODES.put(bizKey, mode);
      long started = System.nanoTime();
      RunningApi.Answer paid = node.pay("lh-key-u" + n, RunningApi.Payment.of(62010 + n, bizKey));
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(paid.status()).as("%s: %s", mode, paid).isEqualTo(503);
      assertThat(paid.code()).isEqualTo("legacy_unknown");
      assertThat(paid.header("Retry-After")).isPresent();
      assertThat(took).as("%s answered within the probe timeout", mode).isLessThan(STUB_DELAY);
    }
    assertThat(RunningApi.rows()).isEqualTo(rows);
    assertThat(metric(unknown) - before).isEqualTo(3.0);

    // The store answers again: the retry with the same key creates the attempt.
    MODES.put("lh-unknown-3", Mode.CLEAR);
    assertThat(node.pay("lh-key-u3", RunningApi.Payment.of(62013, "lh-unknown-3")).status())
        .isEqualTo(201);
  }
}
