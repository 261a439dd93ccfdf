package dev.clearway.sim.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.WalletFault;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The wallet reads money strictly: an amount is an integral JSON number, never a string, a fraction
 * or an exponent converted into one, and a body with a duplicated field is malformed. Each refusal
 * is a 4xx that promises nothing was executed, and the wallet is never called.
 */
class WalletStrictJsonTest {
  private final FaultPlan plan = new FaultPlan(7, 0.9);
  private final SimWallet wallet = new SimWallet(plan, new TestClock());
  private final HttpClient http = HttpClient.newHttpClient();
  private SimWalletServer server;

  @BeforeEach
  void start() {
    server = SimWalletServer.start(wallet, plan, SimWalletServer.Options.defaults());
  }

  @AfterEach
  void stop() {
    server.close();
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"500\"", "500.0", "5e2", "5.0E2", "500.5", "true", "null", "1e400"})
  void anAmountThatIsNotAnIntegralNumberIsAnInvalidRequest(String amount) throws Exception {
    assertRefused(charge(amount, "42"), WireProtocol.INVALID_REQUEST);
    assertThat(wallet.calls()).isZero();
  }

  @Test
  void aUserIdOrARefundAmountSentAsAStringOrAFloatIsAnInvalidRequest() throws Exception {
    assertRefused(charge("500", "\"42\""), WireProtocol.INVALID_REQUEST);
    assertRefused(charge("500", "42.0"), WireProtocol.INVALID_REQUEST);
    assertRefused(
        post(
            "/v1/refunds",
            "{\"refundOrderNo\":\"r_1\",\"tradeOrderNo\":\"t_1\",\"amount\":\"1\","
                + "\"currency\":\"EUR\"}"),
        WireProtocol.INVALID_REQUEST);
    assertRefused(
        post(
            "/v1/refunds",
            "{\"refundOrderNo\":\"r_1\",\"tradeOrderNo\":\"t_1\",\"amount\":1.0,"
                + "\"currency\":\"EUR\"}"),
        WireProtocol.INVALID_REQUEST);
    assertThat(wallet.calls()).isZero();
  }

  @Test
  void aDuplicatedFieldIsMalformed() throws Exception {
    assertRefused(
        post(
            "/v1/charges",
            "{\"tradeOrderNo\":\"t_1\",\"userId\":42,\"amount\":5,\"amount\":500,"
                + "\"currency\":\"EUR\"}"),
        WireProtocol.MALFORMED_JSON);
    assertRefused(
        post(
            "/v1/refunds",
            "{\"refundOrderNo\":\"r_1\",\"tradeOrderNo\":\"t_1\",\"tradeOrderNo\":\"t_2\","
                + "\"amount\":1,\"currency\":\"EUR\"}"),
        WireProtocol.MALFORMED_JSON);
    assertThat(wallet.calls()).isZero();
  }

  @Test
  void aNestedValueIsMalformedEvenInAnUnknownField() throws Exception {
    String body =
        "{\"tradeOrderNo\":\"t_1\",\"userId\":42,\"amount\":5,\"currency\":\"EUR\","
            + "\"extra\":{\"a\":1}}";

    assertRefused(post("/v1/charges", body), WireProtocol.MALFORMED_JSON);
    assertThat(wallet.calls()).isZero();
  }

  @Test
  void spacingFieldOrderEscapesAndUnknownFieldsDoNotMatter() throws Exception {
    String no = FaultSearch.trade(wallet, "t_odd_", WalletFault.NONE);
    String body =
        "\r\n {  \"currency\" :\"\\u0045UR\",\n\t\"note\" : \"ignored\" ,\"amount\":  500 ,"
            + "\"userId\":42 , \"tradeOrderNo\" : \""
            + no
            + "\"}  \n";

    HttpResponse<String> r = post("/v1/charges", body);

    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(WireJson.parse(r.body())).containsEntry("status", WireProtocol.SUCCEEDED);
    assertThat(wallet.ledger()).extracting(LedgerEntry::amount).containsExactly(500L);
  }

  private void assertRefused(HttpResponse<String> r, String code) {
    assertThat(r.statusCode()).as(code).isEqualTo(400);
    assertThat(WireJson.parse(r.body()))
        .containsEntry("error", code)
        .containsEntry("executed", false);
  }

  private HttpResponse<String> charge(String amount, String userId) throws Exception {
    return post(
        "/v1/charges",
        "{\"tradeOrderNo\":\"t_1\",\"userId\":"
            + userId
            + ",\"amount\":"
            + amount
            + ",\"currency\":\"EUR\"}");
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
}
