package dev.clearway.lab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code clearway sim --channels}: two Stripe-style accounts whose webhooks reach any live node.
 */
class SimProcessChannelsTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final String API_KEY = "sk_test_sim_process";
  private static final String WEBHOOK_SECRET = "whsec_stripe_sim_process";

  private record Received(String path, String signature, byte[] body) {}

  private final HttpClient http = HttpClient.newHttpClient();
  private final List<Received> received = new CopyOnWriteArrayList<>();
  private HttpServer node;
  private SimProcess sim;

  @AfterEach
  void stop() {
    if (sim != null) {
      sim.close();
    }
    if (node != null) {
      node.stop(0);
    }
  }

  @Test
  void aPaymentOnAccountOneIsAnnouncedToTheLiveNodeWhenTheFirstIsDown() throws Exception {
    node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    node.createContext(
        "/v1/channels/",
        exchange -> {
          received.add(
              new Received(
                  exchange.getRequestURI().getPath(),
                  exchange.getRequestHeaders().getFirst("Stripe-Signature"),
                  exchange.getRequestBody().readAllBytes()));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    node.start();
    URI down = URI.create("http://127.0.0.1:" + closedPort() + "/v1/callbacks/sim");
    URI live = URI.create("http://127.0.0.1:" + node.getAddress().getPort() + "/v1/callbacks/sim");
    sim =
        SimProcess.start(
            new SimProcess.Options(0, 0.0, 3, List.of(down, live), "whsec_w", "bizsec_b")
                .withStripe(new StripeKeys(API_KEY, WEBHOOK_SECRET)));
    Map<String, URI> urls = sim.endpoints();
    assertThat(urls).containsKeys("wallet", "business", "ledger", "stripeA", "stripeB");
    assertThat(JSON.readTree(sim.readyLine()).get("stripeB").asString())
        .isEqualTo(urls.get("stripeB").toString());

    HttpResponse<String> created = createIntent(urls.get("stripeA"), API_KEY);
    assertThat(created.statusCode()).isEqualTo(200);
    String intentId = JSON.readTree(created.body()).get("id").asString();

    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (received.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(received).isNotEmpty();
    Received hook = received.get(0);
    assertThat(hook.path()).isEqualTo("/v1/channels/1/webhooks");
    JsonNode event = JSON.readTree(hook.body());
    assertThat(event.get("type").asString()).isEqualTo("payment_intent.succeeded");
    assertThat(event.get("data").get("object").get("id").asString()).isEqualTo(intentId);
    assertThat(hook.signature()).isEqualTo(sign(hook));
  }

  @Test
  void aWrongApiKeyIsRefusedAndMissingKeysAreNamed() throws Exception {
    sim =
        SimProcess.start(
            new SimProcess.Options(0, 0.0, 3, List.of(), "whsec_w", "bizsec_b")
                .withStripe(new StripeKeys(API_KEY, WEBHOOK_SECRET)));
    assertThat(createIntent(sim.endpoints().get("stripeB"), "sk_test_other").statusCode())
        .isEqualTo(401);
    assertThatThrownBy(() -> new StripeKeys(API_KEY, ""))
        .hasMessageContaining("CLEARWAY_SIM_STRIPE_WEBHOOK_SECRET");
    assertThat(new StripeKeys(API_KEY, WEBHOOK_SECRET).toString())
        .doesNotContain(API_KEY)
        .doesNotContain(WEBHOOK_SECRET);
  }

  private HttpResponse<String> createIntent(URI base, String key) throws Exception {
    String form =
        "amount=1200&currency=eur&confirm=true&payment_method=pm_card_visa"
            + "&metadata%5Battempt_key%5D=att_sim_1";
    return http.send(
        HttpRequest.newBuilder(URI.create(base + "/v1/payment_intents"))
            .timeout(Duration.ofSeconds(5))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The expected Stripe-Signature of a delivery: HMAC-SHA256 of "t." and the payload. */
  private static String sign(Received hook) throws Exception {
    String t = hook.signature().substring(2, hook.signature().indexOf(','));
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(WEBHOOK_SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    mac.update((t + ".").getBytes(StandardCharsets.UTF_8));
    mac.update(hook.body());
    return "t=" + t + ",v1=" + HexFormat.of().formatHex(mac.doFinal());
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
