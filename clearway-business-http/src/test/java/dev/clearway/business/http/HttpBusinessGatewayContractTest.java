package dev.clearway.business.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.signature.WebhookSignature;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.business.BusinessHttpFault;
import dev.clearway.sim.business.SimBusinessServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link HttpBusinessGateway} against the simulated business over real HTTP on loopback. */
class HttpBusinessGatewayContractTest {
  private static final String SECRET = "biz_secret_for_the_contract_test";
  private static final GoalKey GOAL = new GoalKey("shop-a", 42, "renewal", "vip-2026-12");

  private SimBusiness business;
  private SimBusinessServer server;
  private HttpBusinessGateway gateway;

  @BeforeEach
  void start() {
    business = new SimBusiness(FaultPlan.none(), Clock.systemUTC());
    server =
        SimBusinessServer.start(
            business,
            FaultPlan.none(),
            SimBusinessServer.Options.signedWith(SECRET)
                .withSlowHold(Duration.ofMillis(1_500))
                .withLostResponseHold(Duration.ofMillis(100)));
    gateway =
        HttpBusinessGateway.of(
            HttpBusinessConfig.of(server.baseUrl(), SECRET)
                .withRequestTimeout(Duration.ofMillis(500)));
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static Instant later() {
    return Instant.now().plusSeconds(600);
  }

  @Test
  void fulfilThenTheFactNamesTheOrder() {
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.notDone());
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.ACCEPTED);
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.done("t_1"));
  }

  @Test
  void theSameGoalAndOrderAgainIsTheSameAnswerAndOneGrant() {
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.ACCEPTED);
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.ACCEPTED);
    assertThat(business.grants()).hasSize(1);
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.done("t_1"));
  }

  @Test
  void aGoalFulfilledByAnotherOrderAnswersWithThatOrder() {
    business.grantElsewhere(GOAL, "t_legacy");
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.ALREADY_DONE);
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.done("t_legacy"));
    assertThat(business.grants()).hasSize(1);
  }

  @Test
  void afterTheDeadlineTheFulfilmentIsRejectedAndNothingIsDone() {
    assertThat(gateway.fulfil(GOAL, "t_1", Instant.now().minusSeconds(1)))
        .isEqualTo(BizCallResult.REJECTED);
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.notDone());
  }

  @Test
  void aTimeoutIsUnknownThoughTheBusinessExecuted() {
    server.force(BusinessHttpFault.SLOW);
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.UNKNOWN);
    assertThat(gateway.readFact(GOAL).state()).isEqualTo(BizFact.BizState.UNREADABLE);
    server.force(BusinessHttpFault.NONE);
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.done("t_1"));
  }

  @Test
  void aServerErrorIsUnknown() {
    server.force(BusinessHttpFault.SERVER_ERROR);
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.UNKNOWN);
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.unreadable("BIZ_HTTP_503"));
  }

  @Test
  void aLostAnswerIsUnknownThoughTheGrantCommitted() {
    server.force(BusinessHttpFault.LOST_RESPONSE);
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.UNKNOWN);
    assertThat(business.grants()).hasSize(1);
  }

  @Test
  void aBadlySignedAnswerIsNeverDefinite() {
    server.force(BusinessHttpFault.BAD_SIGNATURE);
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.UNKNOWN);
    assertThat(gateway.readFact(GOAL)).isEqualTo(BizFact.unreadable("BIZ_BAD_SIGNATURE"));
    assertThat(business.grants()).hasSize(1);
  }

  @Test
  void aMalformedAnswerIsNeverDefinite() {
    server.force(BusinessHttpFault.MALFORMED_BODY);
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.UNKNOWN);
    assertThat(gateway.readFact(GOAL).state()).isEqualTo(BizFact.BizState.UNREADABLE);
  }

  @Test
  void aGatewayWithTheWrongSecretIsRefusedAndLearnsNothing() {
    HttpBusinessGateway wrong =
        HttpBusinessGateway.of(HttpBusinessConfig.of(server.baseUrl(), "some_other_secret_1234"));
    assertThat(wrong.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.UNKNOWN);
    assertThat(wrong.readFact(GOAL).state()).isEqualTo(BizFact.BizState.UNREADABLE);
    assertThat(business.grants()).isEmpty();
  }

  @Test
  void aStoppedBusinessIsUnknown() {
    server.close();
    assertThat(gateway.fulfil(GOAL, "t_1", later())).isEqualTo(BizCallResult.UNKNOWN);
    assertThat(gateway.readFact(GOAL).state()).isEqualTo(BizFact.BizState.UNREADABLE);
  }

  @Test
  void theSimulatedBusinessRefusesAnUnsignedOrForgedRequestWith401() throws Exception {
    String body =
        "{\"merchant\":\"shop-a\",\"userId\":42,\"scene\":\"renewal\",\"bizKey\":\"vip\","
            + "\"tradeOrderNo\":\"t_1\",\"deadline\":\"2999-01-01T00:00:00Z\"}";
    HttpClient client = HttpClient.newHttpClient();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.baseUrl() + BusinessProtocol.FULFILMENTS))
            .header("Content-Type", BusinessProtocol.JSON)
            .header(BusinessProtocol.REQUEST_ID_HEADER, "r1")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    assertThat(client.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(401);
    String forged =
        WebhookSignature.sign(
            BusinessProtocol.requestSigned("POST", BusinessProtocol.FULFILMENTS, body.getBytes()),
            Instant.now(),
            "not_the_secret_at_all");
    request.header(BusinessProtocol.SIGNATURE_HEADER, forged);
    assertThat(client.send(request.build(), HttpResponse.BodyHandlers.ofString()).statusCode())
        .isEqualTo(401);
    assertThat(business.grants()).isEmpty();
  }

  @Test
  void aSignedRequestWithACurlStyleBodyIsServedAndTheLedgerIsReadable() throws Exception {
    String body =
        "{\"merchant\":\"shop-a\",\"userId\":42,\"scene\":\"renewal\",\"bizKey\":\"vip\","
            + "\"tradeOrderNo\":\"t_1\",\"deadline\":\"2999-01-01T00:00:00Z\"}";
    String signature =
        WebhookSignature.sign(
            BusinessProtocol.requestSigned("POST", BusinessProtocol.FULFILMENTS, body.getBytes()),
            Instant.now(),
            SECRET);
    HttpClient client = HttpClient.newHttpClient();
    HttpResponse<String> answer =
        client.send(
            HttpRequest.newBuilder(URI.create(server.baseUrl() + BusinessProtocol.FULFILMENTS))
                .header("Content-Type", BusinessProtocol.JSON)
                .header(BusinessProtocol.REQUEST_ID_HEADER, "r1")
                .header(BusinessProtocol.SIGNATURE_HEADER, signature)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).isEqualTo("{\"status\":\"DONE\",\"attributedOrderNo\":\"t_1\"}");
    HttpResponse<String> ledger =
        client.send(
            HttpRequest.newBuilder(URI.create(server.baseUrl() + "/sim/ledger")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(ledger.statusCode()).isEqualTo(200);
    assertThat(ledger.body()).contains("\"attributedOrderNo\":\"t_1\"", "\"bizKey\":\"vip\"");
  }
}
