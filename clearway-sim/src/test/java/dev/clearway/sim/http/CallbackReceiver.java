package dev.clearway.sim.http;

import com.sun.net.httpserver.HttpServer;
import dev.clearway.core.signature.WebhookSignature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;

/**
 * A merchant's callback endpoint in a test: verifies every request with {@link WebhookSignature}
 * against its own clock and records it; answers the status the test chooses for the n-th request.
 */
final class CallbackReceiver implements AutoCloseable {
  record Delivery(
      String header, byte[] raw, WebhookSignature.Result verdict, Map<String, Object> event) {
    String id() {
      return (String) event.get("id");
    }

    String type() {
      return (String) event.get("type");
    }
  }

  private final HttpServer server;
  private final List<Delivery> deliveries = new ArrayList<>();

  /**
   * @param statusOfNth the HTTP status to answer to the n-th request (1-based)
   */
  CallbackReceiver(String secret, IntUnaryOperator statusOfNth) {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext(
        "/hooks/sim",
        exchange -> {
          byte[] raw = exchange.getRequestBody().readAllBytes();
          String header = exchange.getRequestHeaders().getFirst(WebhookSignature.HEADER);
          WebhookSignature.Result verdict =
              WebhookSignature.verify(header, raw, secret, Instant.now());
          Map<String, Object> event = WireJson.parse(raw);
          int n;
          synchronized (deliveries) {
            deliveries.add(new Delivery(header, raw, verdict, event));
            n = deliveries.size();
          }
          exchange.sendResponseHeaders(statusOfNth.applyAsInt(n), -1);
          exchange.close();
        });
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/sim");
  }

  List<Delivery> deliveries() {
    synchronized (deliveries) {
      return List.copyOf(deliveries);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
