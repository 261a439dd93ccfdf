package dev.clearway.wallet.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the gateway makes of answers the simulated wallet never gives but a real network does: proxy
 * pages, truncated or foreign bodies, redirects, stalled bodies. A real HTTP server on an ephemeral
 * port answers whatever the test sets.
 */
class HttpWalletGatewayTransportTest {
  private static final String JSON = "application/json; charset=utf-8";
  private static final String HTML = "text/html";
  private static final String PROXY_PAGE =
      "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";

  private record Canned(int status, String contentType, String body, long stallMillis) {}

  private final AtomicReference<Canned> next = new AtomicReference<>();
  private HttpServer server;
  private HttpWalletGateway gateway;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          Canned c = next.get();
          byte[] body = c.body().getBytes(StandardCharsets.UTF_8);
          if (c.contentType() != null) {
            exchange.getResponseHeaders().set("Content-Type", c.contentType());
          }
          if (c.status() == 302) {
            exchange.getResponseHeaders().set("Location", "http://127.0.0.1:1/elsewhere");
          }
          exchange.sendResponseHeaders(c.status(), body.length + (c.stallMillis() > 0 ? 1 : 0));
          OutputStream out = exchange.getResponseBody();
          out.write(body);
          out.flush();
          if (c.stallMillis() > 0) {
            try {
              Thread.sleep(c.stallMillis());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          exchange.close();
        });
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.start();
    gateway =
        new HttpWalletGateway(
            new HttpWalletConfig(
                URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                Duration.ofMillis(500),
                Duration.ofMillis(400)));
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void answer(int status, String contentType, String body) {
    next.set(new Canned(status, contentType, body, 0));
  }

  private WalletResult pay() {
    return gateway.pay(new ChargeRequest("t_1_2", 1, 100, "EUR"));
  }

  private WalletResult refund() {
    return gateway.refund(new RefundRequest("r_t_1_2", "t_1_2", 100, "EUR"));
  }

  @Test
  void wellFormedAnswersAreDefinite() {
    answer(200, JSON, "{\"status\":\"SUCCEEDED\",\"requestId\":\"w-1\",\"retryable\":false}");
    assertThat(pay()).isEqualTo(WalletResult.success("w-1"));

    answer(200, JSON, "{\"status\":\"FAILED\",\"errorCode\":\"X\",\"requestId\":\"w-2\"}");
    assertThat(pay()).isEqualTo(WalletResult.failed("X", "w-2", false));

    answer(200, JSON, "{\"status\":\"FAILED\",\"errorCode\":\"LOW\",\"retryable\":true}");
    assertThat(refund()).isEqualTo(WalletResult.failed("LOW", null, true));

    answer(200, JSON, "{\"status\":\"PROCESSING\"}");
    assertThat(pay().certainty()).isEqualTo(Certainty.PROCESSING);

    answer(200, JSON, "{\"status\":\"CLOSED\"}");
    assertThat(pay()).isEqualTo(WalletResult.failed("ORDER_CLOSED", null, false));

    answer(200, JSON, "{\"status\":\"CLOSED\",\"errorCode\":\"REFUND_CLOSED\"}");
    assertThat(refund()).isEqualTo(WalletResult.failed("REFUND_CLOSED", null, false));
  }

  @Test
  void notFoundIsNoRecordOnlyForQueries() {
    answer(200, JSON, "{\"status\":\"NOT_FOUND\",\"requestId\":\"w-9\"}");

    assertThat(gateway.queryPayment("t_1_2")).isEqualTo(WalletResult.noRecord("w-9"));
    assertThat(gateway.queryRefund("r_t_1_2")).isEqualTo(WalletResult.noRecord("w-9"));
    assertThat(pay().certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(refund().certainty()).isEqualTo(Certainty.UNKNOWN);
    assertThat(gateway.closePayment("t_1_2").certainty()).isEqualTo(Certainty.UNKNOWN);
  }

  @Test
  void closeAnswersFollowTheClosePaymentContract() {
    answer(200, JSON, "{\"status\":\"CLOSED\"}");
    assertThat(gateway.closePayment("t_1_2").certainty()).isEqualTo(Certainty.SUCCESS);

    answer(200, JSON, "{\"status\":\"SUCCEEDED\"}");
    assertThat(gateway.closePayment("t_1_2"))
        .isEqualTo(WalletResult.failed("ALREADY_PAID", null, false));

    answer(200, JSON, "{\"status\":\"FAILED\",\"errorCode\":\"ALREADY_PAID\"}");
    assertThat(gateway.closePayment("t_1_2").errorCode()).isEqualTo("ALREADY_PAID");

    answer(200, JSON, "{\"status\":\"PROCESSING\"}");
    assertThat(gateway.closePayment("t_1_2").certainty()).isEqualTo(Certainty.PROCESSING);
  }

  @Test
  void serverErrorsAndProxyPagesAreUnknown() {
    for (int status : new int[] {500, 502, 503, 504}) {
      answer(status, HTML, PROXY_PAGE);
      assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_" + status));
    }
    answer(502, JSON, "{\"error\":\"INVALID_REQUEST\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_502"));
    answer(200, HTML, PROXY_PAGE);
    assertThat(pay()).isEqualTo(WalletResult.unknown("UNPARSEABLE_RESPONSE"));
  }

  @Test
  void unreadableOrUnexpectedBodiesAreUnknown() {
    answer(200, JSON, "{\"status\":\"SUCC");
    assertThat(pay()).isEqualTo(WalletResult.unknown("UNPARSEABLE_RESPONSE"));
    answer(200, JSON, "");
    assertThat(pay()).isEqualTo(WalletResult.unknown("UNPARSEABLE_RESPONSE"));
    answer(200, JSON, "{\"result\":\"ok\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("UNPARSEABLE_RESPONSE"));
    answer(200, null, "{\"status\":\"SUCCEEDED\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("UNPARSEABLE_RESPONSE"));
    answer(200, JSON, "{\"status\":\"REFUNDED_TWICE\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("UNEXPECTED_RESPONSE"));
    answer(201, JSON, "{\"status\":\"SUCCEEDED\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_201"));
    answer(302, HTML, "moved");
    assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_302"));
  }

  @Test
  void onlyDocumentedValidationErrorsOfPayAndRefundAreDefinite() {
    answer(400, JSON, "{\"error\":\"INVALID_REQUEST\",\"executed\":false}");
    assertThat(pay()).isEqualTo(WalletResult.failed("INVALID_REQUEST", null, false));
    assertThat(refund()).isEqualTo(WalletResult.failed("INVALID_REQUEST", null, false));
    assertThat(gateway.queryPayment("t_1_2")).isEqualTo(WalletResult.unknown("HTTP_400"));
    assertThat(gateway.closePayment("t_1_2")).isEqualTo(WalletResult.unknown("HTTP_400"));

    answer(400, JSON, "{\"error\":\"MALFORMED_JSON\"}");
    assertThat(pay().certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);
    answer(413, JSON, "{\"error\":\"REQUEST_TOO_LARGE\"}");
    assertThat(pay().certainty()).isEqualTo(Certainty.DEFINITE_FAILURE);

    answer(404, JSON, "{\"error\":\"NO_SUCH_ROUTE\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_404"));
    answer(409, JSON, "{\"error\":\"CONFLICT\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_409"));
    answer(400, HTML, "<html>Bad Request</html>");
    assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_400"));
    answer(429, JSON, "{\"error\":\"RATE_LIMITED\"}");
    assertThat(pay()).isEqualTo(WalletResult.unknown("HTTP_429"));
  }

  @Test
  void aBodyThatStallsAfterTheHeadersIsATimeout() {
    next.set(new Canned(200, JSON, "{\"status\":", 3_000));
    long start = System.nanoTime();

    WalletResult r = pay();

    assertThat(r).isEqualTo(WalletResult.unknown("TIMEOUT"));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2_000));
  }

  @Test
  void headersThatNeverComeAreATimeout() {
    server.removeContext("/");
    server.createContext(
        "/",
        exchange -> {
          try {
            Thread.sleep(2_000);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.close();
        });

    assertThat(pay()).isEqualTo(WalletResult.unknown("TIMEOUT"));
  }
}
