package dev.clearway.sim.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.WalletFault;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The wire as a client sees it, with the JDK's HTTP client. */
class SimWalletServerTest {
  private static final Duration HOLD = Duration.ofMillis(300);

  private final FaultPlan plan = new FaultPlan(7, 0.9);
  private final TestClock clock = new TestClock();
  private final SimWallet wallet = new SimWallet(plan, clock);
  private final HttpClient http = HttpClient.newHttpClient();
  private SimWalletServer server;

  @BeforeEach
  void start() {
    server =
        SimWalletServer.start(
            wallet, plan, SimWalletServer.Options.defaults().withLostResponseHold(HOLD));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @Test
  void servesOnAnEphemeralLoopbackPort() {
    assertThat(server.port()).isPositive();
    assertThat(server.baseUrl().toString()).isEqualTo("http://127.0.0.1:" + server.port());
  }

  @Test
  void chargeIsAJsonAnswerWithItsRequestId() throws Exception {
    String no = FaultSearch.trade(wallet, "t_ok_", WalletFault.NONE);

    HttpResponse<String> r = post("/v1/charges", charge(no, 500));

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue(WireProtocol.JSON);
    Map<String, Object> body = WireJson.parse(r.body());
    assertThat(body)
        .containsEntry("status", "SUCCEEDED")
        .containsEntry("errorCode", null)
        .containsEntry("retryable", false);
    assertThat(r.headers().firstValue("Request-Id")).hasValue((String) body.get("requestId"));
    assertThat(WireJson.parse(get("/v1/charges/" + no).body()))
        .containsEntry("status", "SUCCEEDED");
  }

  @Test
  void unknownOrdersAreNotFound() throws Exception {
    assertThat(WireJson.parse(get("/v1/charges/t_never").body()))
        .containsEntry("status", "NOT_FOUND");
    assertThat(WireJson.parse(get("/v1/refunds/r_never").body()))
        .containsEntry("status", "NOT_FOUND");
  }

  @Test
  void fiveHundredAfterChargeIsARealBadGatewayPage() throws Exception {
    String no = FaultSearch.trade(wallet, "t_5xx_", WalletFault.PAY_5XX);

    HttpResponse<String> r = post("/v1/charges", charge(no, 700));

    assertThat(r.statusCode()).isEqualTo(502);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
    assertThat(r.body()).contains("502 Bad Gateway");
    assertThat(wallet.ledger()).extracting(LedgerEntry::orderNo).containsExactly(no);
  }

  @Test
  void queryFiveHundredIsAServiceUnavailablePage() throws Exception {
    String no = FaultSearch.trade(wallet, "t_q5xx_", WalletFault.QUERY_5XX);
    post("/v1/charges", charge(no, 700));

    assertThat(get("/v1/charges/" + no).statusCode()).isEqualTo(503);
    assertThat(WireJson.parse(get("/v1/charges/" + no).body()))
        .containsEntry("status", "SUCCEEDED");
  }

  @Test
  void lostResponseIsHeldThenDroppedAfterTheCharge() {
    String no = FaultSearch.trade(wallet, "t_lost_", WalletFault.PAY_RESPONSE_LOST);
    long start = System.nanoTime();

    assertThatThrownBy(() -> post("/v1/charges", charge(no, 900))).isInstanceOf(IOException.class);

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(HOLD);
    assertThat(wallet.ledger()).extracting(LedgerEntry::orderNo).containsExactly(no);
  }

  @Test
  void simulatedCrashDropsTheConnectionAndTheServerKeepsServing() throws Exception {
    String no = FaultSearch.trade(wallet, "t_crash_", WalletFault.PAY_CRASH_AFTER_CHARGE);

    assertThatThrownBy(() -> post("/v1/charges", charge(no, 900))).isInstanceOf(IOException.class);

    assertThat(wallet.ledger()).extracting(LedgerEntry::orderNo).containsExactly(no);
    assertThat(WireJson.parse(get("/v1/charges/" + no).body()))
        .containsEntry("status", "SUCCEEDED");
  }

  @Test
  void closeThenPayIsClosed() throws Exception {
    String no = FaultSearch.trade(wallet, "t_close_", WalletFault.NONE);

    assertThat(WireJson.parse(post("/v1/charges/" + no + "/close", "{}").body()))
        .containsEntry("status", "CLOSED");
    assertThat(WireJson.parse(post("/v1/charges", charge(no, 100)).body()))
        .containsEntry("status", "CLOSED")
        .containsEntry("errorCode", "ORDER_CLOSED");
    assertThat(wallet.ledger()).isEmpty();
  }

  @Test
  void invalidRequestsAreRefusedBeforeTheWalletIsCalled() throws Exception {
    assertRefused(post("/v1/charges", "{\"tradeOrderNo\":"), 400, "MALFORMED_JSON");
    assertRefused(post("/v1/charges", "<xml/>"), 400, "MALFORMED_JSON");
    assertRefused(
        post("/v1/charges", "{\"tradeOrderNo\":\"t_1\",\"userId\":1,\"currency\":\"EUR\"}"),
        400,
        "INVALID_REQUEST");
    assertRefused(post("/v1/charges", charge("t_1", 0)), 400, "INVALID_REQUEST");
    assertRefused(post("/v1/charges", charge("t_1", -5)), 400, "INVALID_REQUEST");
    assertRefused(
        post("/v1/charges", charge("t_1", 5).replace("EUR", "eur")), 400, "INVALID_REQUEST");
    assertRefused(post("/v1/charges", charge("t 1", 5)), 400, "INVALID_REQUEST");
    assertRefused(
        post("/v1/charges", charge("t_1", 5).replace("5,", "5.5,")), 400, "INVALID_REQUEST");
    assertRefused(
        post(
            "/v1/refunds",
            "{\"refundOrderNo\":\"r_1\",\"tradeOrderNo\":\"\",\"amount\":1,\"currency\":\"EUR\"}"),
        400,
        "INVALID_REQUEST");
    assertRefused(get("/v1/charges/a%20b"), 400, "INVALID_REQUEST");
    assertRefused(
        post("/v1/charges", "{\"x\":\"" + "a".repeat(70_000) + "\"}"), 413, "REQUEST_TOO_LARGE");
    assertRefused(get("/v1/charges"), 405, "METHOD_NOT_ALLOWED");
    assertRefused(post("/v1/refunds/r_1", "{}"), 405, "METHOD_NOT_ALLOWED");
    assertRefused(get("/v2/whatever"), 404, "NO_SUCH_ROUTE");

    assertThat(wallet.calls()).isZero();
  }

  private void assertRefused(HttpResponse<String> r, int status, String code) {
    assertThat(r.statusCode()).as(code).isEqualTo(status);
    assertThat(WireJson.parse(r.body()))
        .containsEntry("error", code)
        .containsEntry("executed", false);
  }

  private static String charge(String no, long amount) {
    return "{\"tradeOrderNo\":\""
        + no
        + "\",\"userId\":42,\"amount\":"
        + amount
        + ",\"currency\":\"EUR\"}";
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .timeout(Duration.ofSeconds(5))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
            .timeout(Duration.ofSeconds(5))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
