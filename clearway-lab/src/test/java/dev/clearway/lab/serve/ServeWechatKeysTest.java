package dev.clearway.lab.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.channel.SimChannels;
import dev.clearway.sim.psp.wechat.WechatSimServer;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code serve --channels} counts a WeChat Pay response signed under a platform serial it does not
 * know in {@code clearway_wechat_unknown_serial_total}, whose series is there at zero from the
 * start.
 */
class ServeWechatKeysTest {
  private static final String KEY = "mk_test_wechat_keys_3b7d9f1a";
  private static final String OPERATOR_KEY = "ok_test_wechat_keys_6c2e";

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  void aResponseUnderAnUnknownSerialIsCounted() throws Exception {
    Serve.Options options =
        Serve.Options.defaults()
            .withPort(0)
            .withChannels()
            .withProperties(
                Map.of(
                    "clearway.keys.merchant",
                    KEY,
                    "clearway.keys.operator",
                    "olivia=" + OPERATOR_KEY,
                    "clearway.keys.approver",
                    "aaron=ak_test_wechat_keys_9a4f",
                    "clearway.timing",
                    "compressed"));
    try (Serve.Running running =
        Serve.start(options, new PrintStream(OutputStream.nullOutputStream()))) {
      String base = "http://127.0.0.1:" + running.port();
      SimChannels sims = (SimChannels) running.channels();
      String mchid = sims.wechatMerchants().get(3L);
      String series =
          "clearway_wechat_unknown_serial_total{kind=\"response\",mchid=\"" + mchid + "\"}";
      assertThat(sample(base, series)).as("registered at zero").isEqualTo(0.0);

      // WeChat Pay signs with a platform key the service was never given.
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(2048);
      ((WechatSimServer) sims.sim(3))
          .rotatePlatformKey(rsa.generateKeyPair().getPrivate(), "PLATFORM-ROGUE");
      String body =
          "{\"userId\":8,\"scene\":\"renew\",\"bizKey\":\"wx-rogue-1\",\"amount\":300,"
              + "\"currency\":\"CNY\",\"paymentMethod\":\"wallet\",\"bizDeadline\":\""
              + Instant.now().plusSeconds(120)
              + "\"}";
      HttpResponse<String> created =
          http.send(
              HttpRequest.newBuilder(URI.create(base + "/v1/payments"))
                  .header("Authorization", "Bearer " + KEY)
                  .header("Idempotency-Key", "wx-rogue-1")
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

      long giveUp = System.nanoTime() + 30_000_000_000L;
      double counted = sample(base, series);
      while (counted < 1 && System.nanoTime() < giveUp) {
        Thread.sleep(200);
        counted = sample(base, series);
      }
      assertThat(counted).as("responses under the unknown serial").isGreaterThanOrEqualTo(1.0);
    }
  }

  private double sample(String base, String series) throws Exception {
    HttpResponse<String> scraped =
        http.send(
            HttpRequest.newBuilder(URI.create(base + "/actuator/prometheus"))
                .header("Authorization", "Bearer " + OPERATOR_KEY)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(scraped.statusCode()).isEqualTo(200);
    Matcher m =
        Pattern.compile("^" + Pattern.quote(series) + " (\\S+)$", Pattern.MULTILINE)
            .matcher(scraped.body());
    assertThat(m.find()).as("%s in the scrape", series).isTrue();
    return Double.parseDouble(m.group(1));
  }
}
