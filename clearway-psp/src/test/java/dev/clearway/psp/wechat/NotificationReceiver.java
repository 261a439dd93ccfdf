package dev.clearway.psp.wechat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;

/** A merchant's notify_url on loopback: records every delivery and answers scripted statuses. */
final class NotificationReceiver implements AutoCloseable {

  /** One delivery as received: headers lower-cased, the raw body, arrival in nanoseconds. */
  record Delivery(Map<String, String> headers, byte[] body, long arrivedNanos) {}

  private final HttpServer server;
  private final List<Delivery> deliveries = new ArrayList<>();
  private final Deque<Integer> script = new ArrayDeque<>();
  private int defaultStatus = 200;

  NotificationReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/",
        exchange -> {
          byte[] body = exchange.getRequestBody().readAllBytes();
          Map<String, String> headers = new HashMap<>();
          exchange
              .getRequestHeaders()
              .forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.get(0)));
          int status;
          synchronized (this) {
            deliveries.add(new Delivery(headers, body, System.nanoTime()));
            status = script.isEmpty() ? defaultStatus : script.poll();
          }
          exchange.sendResponseHeaders(status, -1);
          exchange.close();
        });
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/wechat/notify");
  }

  /** The next answers, in order; afterwards {@code thenAlways}. */
  synchronized void answer(int thenAlways, int... next) {
    for (int s : next) {
      script.add(s);
    }
    defaultStatus = thenAlways;
  }

  synchronized List<Delivery> deliveries() {
    return List.copyOf(deliveries);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
