package dev.clearway.lab.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A node's counters add up over its lives: a restart starts from zero, nothing is lost. */
class NodeMetricsTest {

  @Test
  void countersAddUpOverEveryLifeAndSeriesAndRefuseWithoutTheKey() throws Exception {
    AtomicReference<String> body = new AtomicReference<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/actuator/prometheus",
        exchange -> {
          boolean authorized =
              "Bearer k1".equals(exchange.getRequestHeaders().getFirst("Authorization"));
          byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(authorized ? 200 : 401, bytes.length);
          exchange.getResponseBody().write(bytes);
          exchange.close();
        });
    server.start();
    try {
      URI base = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
      NodeMetrics metrics = new NodeMetrics("k1");
      metrics.newLife("node-1");
      body.set(
          "# HELP clearway_scanner_hits_total x\n"
              + "clearway_scanner_hits_total{kind=\"flow\"} 5.0\n"
              + "clearway_scanner_hits_total{kind=\"other\"} 2.0\n"
              + "clearway_broker_wakeup_lag_seconds_count 7.0\n");
      metrics.scrape("node-1", base);
      body.set("clearway_scanner_hits_total{kind=\"flow\"} 9.0\n");
      metrics.scrape("node-1", base);
      assertEquals(9, metrics.total(NodeMetrics.SCANNER_HITS), "the latest scrape of a life");
      metrics.newLife("node-1");
      body.set("clearway_scanner_hits_total{kind=\"flow\"} 3.0\n");
      metrics.scrape("node-1", base);
      assertEquals(12, metrics.total(NodeMetrics.SCANNER_HITS), "the lives add up");
      assertEquals(0, metrics.total(NodeMetrics.BROKER_WAKEUPS), "the second scrape replaced it");

      NodeMetrics wrongKey = new NodeMetrics("k2");
      wrongKey.scrape("node-1", base);
      assertEquals(0, wrongKey.total(NodeMetrics.SCANNER_HITS), "a refused scrape counts nothing");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void optionsRefuseWhatCannotRun() {
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> new ClusterOptions(0, 10, 1, 5, 0.3, null, null, null, 8, 300, 60));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> new ClusterOptions(3, 10, 1, 5, 0.3, null, "jdbc:mysql://x/y", null, 8, 300, 60));
    org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class,
        () -> new ClusterOptions(3, 10, 1, 5, 1.5, null, null, null, 8, 300, 60));
  }
}
