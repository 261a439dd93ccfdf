package dev.clearway.psp.stripe;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A webhook endpoint on loopback that records every delivery (headers lower-cased, raw body) and
 * answers 200, or 500 to the first {@code failFirst} deliveries.
 */
final class WebhookInbox implements AutoCloseable {

  record Delivery(Map<String, String> headers, byte[] body) {}

  private final HttpServer server;
  private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  private final AtomicInteger failuresLeft;
  private final AtomicInteger received = new AtomicInteger();

  WebhookInbox(int failFirst) throws IOException {
    this.failuresLeft = new AtomicInteger(failFirst);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/webhooks",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          received.incrementAndGet();
          int status = failuresLeft.getAndDecrement() > 0 ? 500 : 200;
          if (status == 200) {
            Map<String, String> headers = new TreeMap<>();
            exchange
                .getRequestHeaders()
                .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.get(0)));
            deliveries.add(new Delivery(headers, body));
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks");
  }

  /** HTTP requests received, failed ones included. */
  int received() {
    return received.get();
  }

  /** Waits until at least {@code n} deliveries were accepted; returns all accepted so far. */
  List<Delivery> await(int n, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (deliveries.size() < n && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    return new ArrayList<>(deliveries);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
