package dev.clearway.lab.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.signature.WebhookSignature;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code serve --channels}: a payment made over the HTTP API is charged through the channel layer
 * (an attempt on a simulated Stripe-style PSP over HTTP), its webhook arrives at {@code
 * /v1/channels/{id}/webhooks} and is verified, and a forged webhook is refused with its code.
 */
class ServeChannelsTest {

  private static final String KEY = "mk_test_channels_5e7a9c1b3d";
  private static final String KEY_OF_B = "mk_test_channels_shop_b_8c2e4a";
  private static final String OPERATOR_KEY = "ok_test_channels_1_7c3a";

  @Test
  void aPaymentGoesThroughAChannelAccountAndItsWebhookIsVerified() throws Exception {
    Serve.Options options =
        Serve.Options.defaults()
            .withPort(0)
            .withChannels()
            .withProperties(
                Map.of(
                    "clearway.keys.merchant",
                    KEY + ",shop-b=" + KEY_OF_B,
                    "clearway.keys.operator",
                    "olivia=" + OPERATOR_KEY,
                    "clearway.keys.approver",
                    "aaron=ak_test_channels_1_2f8e",
                    "clearway.timing",
                    "compressed"));
    try (Serve.Running running =
        Serve.start(options, new PrintStream(OutputStream.nullOutputStream()))) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      String base = "http://127.0.0.1:" + running.port();
      String body =
          "{\"userId\":7,\"scene\":\"renew\",\"bizKey\":\"ch-1\",\"amount\":1500,"
              + "\"currency\":\"EUR\",\"bizDeadline\":\""
              + Instant.now().plusSeconds(60)
              + "\"}";
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/v1/payments"))
                  .header("Authorization", "Bearer " + KEY)
                  .header("Idempotency-Key", "ch-1")
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isIn(200, 201, 202);

      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      String status = "";
      long webhooks = 0;
      while (System.nanoTime() < deadline) {
        status = text(running, "SELECT status FROM pay_flow WHERE biz_key = 'ch-1'");
        webhooks = count(running, "SELECT count(*) FROM channel_webhook_inbox");
        if ("BIZ_SUCCESS".equals(status) && webhooks > 0) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(status).isEqualTo("BIZ_SUCCESS");
      assertThat(webhooks).isPositive();
      assertThat(count(running, "SELECT count(*) FROM payment_attempt WHERE status = 'SUCCEEDED'"))
          .isEqualTo(1);
      assertThat(text(running, "SELECT status FROM recovery_policy WHERE status = 'ACTIVE'"))
          .isEqualTo("ACTIVE");

      HttpResponse<String> forged =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/v1/channels/1/webhooks"))
                  .header("Stripe-Signature", "t=1,v1=" + "0".repeat(64))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString("{\"id\":\"evt_x\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(forged.statusCode()).isEqualTo(400);
      assertThat(forged.body()).contains("bad_signature");

      // The simulated accounts' secrets are generated per run: a webhook signed with the secret
      // that used to be a constant of the code is refused as well.
      String event = "{\"id\":\"evt_old_secret\",\"type\":\"payment_intent.succeeded\"}";
      HttpResponse<String> oldSecret =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/v1/channels/1/webhooks"))
                  .header(
                      "Stripe-Signature",
                      WebhookSignature.sign(event, Instant.now(), "whsec_clearway_sim"))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(event))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(oldSecret.statusCode()).isEqualTo(400);
      assertThat(oldSecret.body()).contains("bad_signature");

      // A business retry: only while paying, only with a well-formed method token.
      String flowId = text(running, "SELECT id FROM pay_flow WHERE biz_key = 'ch-1'");
      long attemptsBefore = count(running, "SELECT count(*) FROM payment_attempt");
      HttpResponse<String> badToken =
          changeMethod(http, base, flowId, "{\"paymentMethod\":\"4111 1111\"}");
      assertThat(badToken.statusCode()).isEqualTo(422);
      assertThat(badToken.body()).contains("invalid_payment_method");
      HttpResponse<String> byAnotherMerchant =
          changeMethod(http, base, flowId, "{\"paymentMethod\":\"pm_card_visa\"}", KEY_OF_B);
      assertThat(byAnotherMerchant.statusCode()).isEqualTo(404);
      assertThat(byAnotherMerchant.body()).contains("flow_not_found");
      HttpResponse<String> notPaying =
          changeMethod(http, base, flowId, "{\"paymentMethod\":\"pm_card_visa\"}");
      assertThat(notPaying.statusCode()).isEqualTo(409);
      assertThat(notPaying.body()).contains("flow_not_paying");
      assertThat(count(running, "SELECT count(*) FROM payment_attempt")).isEqualTo(attemptsBefore);

      // The on-call signals are exported.
      HttpResponse<String> prometheus =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))
                  .header("Authorization", "Bearer " + OPERATOR_KEY)
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(prometheus.body())
          .contains("clearway_channel_psp_answers_total")
          .contains("clearway_channel_recovery_oldest_age")
          .contains("clearway_channel_circuit_open");
    }
  }

  private static HttpResponse<String> changeMethod(
      HttpClient http, String base, String flowId, String json) throws Exception {
    return changeMethod(http, base, flowId, json, KEY);
  }

  private static HttpResponse<String> changeMethod(
      HttpClient http, String base, String flowId, String json, String key) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(base + "/v1/payment-flows/" + flowId + "/payment-method"))
            .header("Authorization", "Bearer " + key)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String text(Serve.Running running, String sql) throws Exception {
    try (Connection c = running.database().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static long count(Serve.Running running, String sql) throws Exception {
    String v = text(running, sql);
    return v == null ? 0 : Long.parseLong(v);
  }
}
