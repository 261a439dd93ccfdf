package dev.clearway.lab.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.business.SimBusinessServer;
import dev.clearway.store.testing.TestDatabase;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code serve} grants goals only through the business contract: with {@code --business-url} it
 * talks to that business system over HTTP, signed with the shared secret; without it, to the
 * simulated business it starts on a port of its own.
 */
class ServeBusinessTest {
  private static final String MERCHANT = "mk_test_business_5d0c2e";
  private static final String SECRET = "bizsec_test_serve_business_81f3";

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  @Test
  void aPaymentIsGrantedByTheBusinessAtTheGivenUrl() throws Exception {
    SimBusiness business = new SimBusiness(FaultPlan.none(), Clock.systemUTC());
    String url = ((HikariDataSource) TestDatabase.get().dataSource()).getJdbcUrl();
    try (SimBusinessServer external =
            SimBusinessServer.start(
                business, FaultPlan.none(), SimBusinessServer.Options.signedWith(SECRET));
        Serve.Running running =
            Serve.start(
                options(url).withBusiness(Serve.Business.at(external.baseUrl().toString(), SECRET)),
                new PrintStream(OutputStream.nullOutputStream()))) {
      assertThat(running.business()).isNull();
      assertThat(running.simBusiness()).isNull();
      String tradeOrderNo = payUntilGranted(running, "ext-1");
      assertThat(business.grants())
          .extracting(GrantEntry::attributedOrderNo)
          .containsExactly(tradeOrderNo);
    }
  }

  @Test
  void withoutAUrlTheSimulatedBusinessIsSpokenToOverHttp() throws Exception {
    String url = ((HikariDataSource) TestDatabase.get().dataSource()).getJdbcUrl();
    try (Serve.Running running =
        Serve.start(options(url), new PrintStream(OutputStream.nullOutputStream()))) {
      assertThat(running.simBusiness()).isNotNull();
      String tradeOrderNo = payUntilGranted(running, "sim-1");
      assertThat(running.business().grants())
          .extracting(GrantEntry::attributedOrderNo)
          .containsExactly(tradeOrderNo);
      HttpResponse<String> ledger =
          http.send(
              HttpRequest.newBuilder(URI.create(running.simBusiness().baseUrl() + "/sim/ledger"))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(ledger.body()).contains(tradeOrderNo);
    }
  }

  @Test
  void aBusinessUrlWithoutASecretIsABadOption() {
    assertThatThrownBy(() -> Serve.Business.at("http://127.0.0.1:1", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CLEARWAY_BUSINESS_SECRET");
    assertThatThrownBy(() -> Serve.Business.at("ftp://example.org", SECRET))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static Serve.Options options(String jdbcUrl) {
    return Serve.Options.defaults()
        .withPort(0)
        .withJdbcUrl(jdbcUrl)
        .withProperties(
            Map.of("clearway.keys.merchant", MERCHANT, "clearway.timing", "compressed"));
  }

  /** Pays for a goal and waits for BIZ_SUCCESS; the flow's trade order number. */
  private String payUntilGranted(Serve.Running running, String bizKey) throws Exception {
    String body =
        "{\"userId\":7,\"scene\":\"renew\",\"bizKey\":\""
            + bizKey
            + "\",\"amount\":1500,\"currency\":\"EUR\",\"bizDeadline\":\""
            + Instant.now().plusSeconds(60)
            + "\"}";
    HttpResponse<String> created =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + running.port() + "/v1/payments"))
                .header("Authorization", "Bearer " + MERCHANT)
                .header("Idempotency-Key", bizKey)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isIn(200, 201, 202);
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String status = "";
    while (System.nanoTime() < deadline && !"BIZ_SUCCESS".equals(status)) {
      Thread.sleep(100);
      status = text(running, "SELECT status FROM pay_flow WHERE biz_key = '" + bizKey + "'");
    }
    assertThat(status).isEqualTo("BIZ_SUCCESS");
    return text(running, "SELECT trade_order_no FROM pay_flow WHERE biz_key = '" + bizKey + "'");
  }

  private static String text(Serve.Running running, String sql) throws Exception {
    try (Connection c = running.database().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }
}
