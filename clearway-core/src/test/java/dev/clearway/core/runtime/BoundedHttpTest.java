package dev.clearway.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The adapters' exchange against a real HTTP server on an ephemeral loopback port. */
class BoundedHttpTest {
  private static final Duration BUDGET = Duration.ofMillis(800);

  private final AtomicLong stallMillis = new AtomicLong();
  private HttpServer server;
  private ExecutorService serverThreads;
  private HttpClient client;
  private URI uri;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
          long stall = stallMillis.get();
          String size = exchange.getRequestURI().getQuery();
          if (size != null) {
            body = new byte[Integer.parseInt(size)];
          }
          exchange.sendResponseHeaders(200, body.length + (stall > 0 ? 1 : 0));
          OutputStream out = exchange.getResponseBody();
          out.write(body);
          out.flush();
          if (stall > 0) {
            try {
              Thread.sleep(stall);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          exchange.close();
        });
    serverThreads = Executors.newCachedThreadPool();
    server.setExecutor(serverThreads);
    server.start();
    uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    client = BoundedHttp.client("test", Duration.ofSeconds(2), 2);
  }

  @AfterEach
  void stop() {
    server.stop(0);
    serverThreads.shutdownNow();
  }

  private HttpResponse<byte[]> post(URI target) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(target)
            .timeout(BUDGET)
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    return BoundedHttp.exchange(client, request, 1024, BUDGET);
  }

  @Test
  void manyExchangesStartNoThreadPerCall() throws Exception {
    for (int i = 0; i < 10; i++) {
      post(uri); // connections, the executor's threads, the server's workers
    }
    long before = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount();

    for (int i = 0; i < 200; i++) {
      assertThat(post(uri).statusCode()).isEqualTo(200);
    }

    long started = ManagementFactory.getThreadMXBean().getTotalStartedThreadCount() - before;
    assertThat(started).isLessThan(20);
  }

  @Test
  void aBodyThatStallsAfterTheHeadersTimesOutWithinTheBudgetAndTheNextCallIsServed()
      throws Exception {
    assertThat(post(uri).statusCode()).isEqualTo(200);
    stallMillis.set(3_000);
    long start = System.nanoTime();

    assertThatThrownBy(() -> post(uri)).isInstanceOf(HttpTimeoutException.class);

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(2_000));
    stallMillis.set(0);
    HttpResponse<byte[]> next = post(uri);
    assertThat(next.statusCode()).isEqualTo(200);
    assertThat(new String(next.body(), StandardCharsets.UTF_8)).isEqualTo("{\"ok\":true}");
  }

  @Test
  void aBodyDeclaredLargerThanTheLimitIsDiscarded() throws Exception {
    assertThat(post(uri.resolve("/?1024")).body()).hasSize(1024);
    assertThat(post(uri.resolve("/?1025")).body()).isEmpty();
  }
}
