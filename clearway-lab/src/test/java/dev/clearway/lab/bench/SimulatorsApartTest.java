package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The soak's service with the simulated wallet and business in a JVM of their own: payments are
 * charged and granted there, and the service's JVM keeps none of the simulators' orders (they keep
 * every order of a run for their statements, which grew the soak's heap with every payment when
 * they shared the service's JVM).
 */
class SimulatorsApartTest {
  private static final int PAYMENTS = 12;

  @Test
  void paymentsAreChargedInTheSimulatorsJvmAndNoneInTheServices() throws Exception {
    try (ApiService service = ApiService.startWithOwnSimulators(null, System.err)) {
      ApiClient client = new ApiClient(service.base(), service.merchantKey());
      long deadline = Instant.now().plusSeconds(600).getEpochSecond();
      int terminal = 0;
      for (int i = 0; i < PAYMENTS; i++) {
        ApiClient.Answer answer = client.create(deadline);
        long until = System.nanoTime() + 30_000_000_000L;
        while (!answer.terminal() && answer.flowId() > 0 && System.nanoTime() < until) {
          Thread.sleep(50);
          answer = client.get(answer.flowId());
        }
        terminal += answer.terminal() ? 1 : 0;
      }

      assertThat(terminal).isEqualTo(PAYMENTS);
      JsonNode ledger = walletLedger(service.simulators());
      long charges = 0;
      for (JsonNode entry : ledger) {
        charges += "CHARGE".equals(entry.get("kind").stringValue()) ? 1 : 0;
      }
      assertThat(charges).isEqualTo(PAYMENTS);
      // The simulated wallet serve creates in the service's JVM was never called.
      assertThat(service.running().wallet().ledger()).isEmpty();
      assertThat(service.running().business()).isNull();
      assertThat(service.simulators().heapAfterGc()).isPositive();
    }
  }

  private static JsonNode walletLedger(SimJvm sims) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(sims.ledger().resolve("/wallet-ledger")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return JsonMapper.builder().build().readTree(response.body());
  }
}
