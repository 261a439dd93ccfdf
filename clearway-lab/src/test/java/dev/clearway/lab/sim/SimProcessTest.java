package dev.clearway.lab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.business.http.HttpBusinessConfig;
import dev.clearway.business.http.HttpBusinessGateway;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.lab.cli.SimCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The simulated world in a process of its own, spoken to over real HTTP on free ports. */
class SimProcessTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String WEBHOOK_SECRET = "whsec_sim_process_test";
  private static final String BUSINESS_SECRET = "bizsec_sim_process_test";

  private final HttpClient http = HttpClient.newHttpClient();
  private SimProcess sim;
  private Map<String, URI> urls;

  @BeforeEach
  void start() {
    sim =
        SimProcess.start(
            new SimProcess.Options(0, 0.0, 7, List.of(), WEBHOOK_SECRET, BUSINESS_SECRET));
    urls = sim.endpoints();
  }

  @AfterEach
  void stop() {
    sim.close();
  }

  @Test
  void theReadyLineNamesTheThreeServersThatAnswer() throws Exception {
    JsonNode line = JSON.readTree(sim.readyLine());

    assertThat(line.propertyNames()).contains("wallet", "business", "ledger");
    assertThat(line.get("wallet").asString()).isEqualTo(urls.get("wallet").toString());
    assertThat(line.get("ledger").asString()).matches("http://127\\.0\\.0\\.1:\\d+");
    assertThat(sim.readyLine()).doesNotContain(WEBHOOK_SECRET).doesNotContain(BUSINESS_SECRET);
    HttpResponse<String> health = get("ledger", "/health");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(health.body()).get("status").asString()).isEqualTo("UP");
  }

  @Test
  void aChargeOverHttpIsReadBackFromTheWalletLedger() throws Exception {
    HttpResponse<String> charge = post("wallet", "/v1/charges", charge("t_sim_1", 250));
    assertThat(JSON.readTree(charge.body()).get("status").asString()).isEqualTo("SUCCEEDED");

    JsonNode ledger = JSON.readTree(get("ledger", "/wallet-ledger?settle=true").body());

    assertThat(ledger.isArray()).isTrue();
    assertThat(ledger.size()).isEqualTo(1);
    JsonNode entry = ledger.get(0);
    assertThat(entry.get("kind").asString()).isEqualTo("CHARGE");
    assertThat(entry.get("orderNo").asString()).isEqualTo("t_sim_1");
    assertThat(entry.get("tradeOrderNo").asString()).isEqualTo("t_sim_1");
    assertThat(entry.get("amount").asLong()).isEqualTo(250);
    assertThat(Instant.parse(entry.get("at").asString())).isBeforeOrEqualTo(Instant.now());
  }

  @Test
  void aGrantOverTheBusinessContractIsReadBackWithItsWholeGoal() throws Exception {
    GoalKey goal = new GoalKey("shop-7", 42, "vip", "month-2026-12");
    HttpBusinessGateway gateway =
        HttpBusinessGateway.of(HttpBusinessConfig.of(urls.get("business"), BUSINESS_SECRET));
    BizCallResult result = gateway.fulfil(goal, "t_grant_1", Instant.now().plusSeconds(30));
    assertThat(result).isEqualTo(BizCallResult.ACCEPTED);

    JsonNode grants = JSON.readTree(get("ledger", "/business-ledger").body());

    assertThat(grants.size()).isEqualTo(1);
    JsonNode g = grants.get(0);
    GoalKey rebuilt =
        new GoalKey(
            g.get("merchant").asString(),
            g.get("userId").asLong(),
            g.get("scene").asString(),
            g.get("bizKey").asString());
    assertThat(rebuilt).isEqualTo(goal);
    assertThat(g.get("attributedOrderNo").asString()).isEqualTo("t_grant_1");
  }

  @Test
  void anOutageAnswers503WithoutChargingAndEveryRequestIsCounted() throws Exception {
    post("wallet", "/v1/charges", charge("t_before", 100));
    get("wallet", "/v1/charges/t_before");

    HttpResponse<String> outage = post("ledger", "/wallet-outage?seconds=30", "");
    assertThat(outage.statusCode()).isEqualTo(200);
    Instant until = Instant.parse(JSON.readTree(outage.body()).get("outageUntil").asString());
    assertThat(until).isAfter(Instant.now().plusSeconds(25));

    HttpResponse<String> refused = post("wallet", "/v1/charges", charge("t_during", 100));
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(get("wallet", "/v1/charges/t_before").statusCode()).isEqualTo(503);

    JsonNode ledger = JSON.readTree(get("ledger", "/wallet-ledger?settle=true").body());
    assertThat(ledger.size()).isEqualTo(1);
    assertThat(ledger.get(0).get("orderNo").asString()).isEqualTo("t_before");

    // Four wallet API requests, the two refused ones included; the ledger's own are not counted.
    JsonNode calls = JSON.readTree(get("ledger", "/wallet-calls").body());
    long total = 0;
    for (JsonNode second : calls.get("perSecond")) {
      assertThat(second.get("second").asLong()).isLessThanOrEqualTo(Instant.now().getEpochSecond());
      total += second.get("calls").asLong();
    }
    assertThat(total).isEqualTo(4);
    assertThat(calls.get("windowSeconds").asInt()).isEqualTo(600);

    // Ending the outage brings the wallet back.
    post("ledger", "/wallet-outage?seconds=0", "");
    assertThat(post("wallet", "/v1/charges", charge("t_after", 100)).statusCode()).isEqualTo(200);
  }

  @Test
  void badControlRequestsAreRefused() throws Exception {
    assertThat(post("ledger", "/wallet-outage?seconds=soon", "").statusCode()).isEqualTo(400);
    assertThat(post("ledger", "/wallet-outage", "").statusCode()).isEqualTo(400);
    assertThat(get("ledger", "/wallet-outage?seconds=5").statusCode()).isEqualTo(405);
    assertThat(get("ledger", "/no-such-thing").statusCode()).isEqualTo(404);
    assertThat(post("wallet", "/v1/charges", charge("t_ok", 1)).statusCode()).isEqualTo(200);
  }

  @Test
  void optionsRefuseMissingSecretsWithoutPrintingAny() {
    assertThatThrownBy(() -> new SimProcess.Options(0, 0.1, 1, List.of(), " ", BUSINESS_SECRET))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CLEARWAY_SIM_WEBHOOK_SECRET");
    assertThat(new SimProcess.Options(0, 0.1, 1, List.of(), WEBHOOK_SECRET, BUSINESS_SECRET))
        .asString()
        .doesNotContain(WEBHOOK_SECRET)
        .doesNotContain(BUSINESS_SECRET);
  }

  @Test
  void theCommandExitsTwoWhenASecretIsMissing() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Map<String, String> env = Map.of("CLEARWAY_SIM_WEBHOOK_SECRET", WEBHOOK_SECRET);
    SimCommand command =
        new SimCommand(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            env::get);

    int exit = new CommandLine(command).execute("--port", "0");

    assertThat(exit).isEqualTo(2);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("CLEARWAY_BUSINESS_SECRET")
        .doesNotContain(WEBHOOK_SECRET);
  }

  private static String charge(String no, long amount) {
    return "{\"tradeOrderNo\":\""
        + no
        + "\",\"userId\":7,\"amount\":"
        + amount
        + ",\"currency\":\"EUR\"}";
  }

  private HttpResponse<String> get(String server, String path) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(urls.get(server) + path))
            .timeout(Duration.ofSeconds(5))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String server, String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(urls.get(server) + path))
            .timeout(Duration.ofSeconds(5))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
