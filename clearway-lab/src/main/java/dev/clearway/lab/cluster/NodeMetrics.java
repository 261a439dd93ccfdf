package dev.clearway.lab.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The nodes' counters added up over every life of every node: each life's latest scrape of its
 * Prometheus endpoint counts, so a node killed between two scrapes loses at most what it counted
 * since the last one (the figures are lower bounds).
 */
final class NodeMetrics {
  /** Wake-ups the broker delivered and a node consumed (the lag timer records each one). */
  static final String BROKER_WAKEUPS = "clearway_broker_wakeup_lag_seconds_count";

  /** Flows the scanner found due. */
  static final String SCANNER_HITS = "clearway_scanner_hits_total";

  private final String key;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  private final Map<String, Map<String, Double>> closedLives = new HashMap<>();
  private final Map<String, Map<String, Double>> currentLife = new HashMap<>();

  NodeMetrics(String key) {
    this.key = key;
  }

  /** A node starts again: its previous life's last scrape is kept. */
  synchronized void newLife(String node) {
    Map<String, Double> last = currentLife.remove(node);
    if (last != null) {
      closedLives.computeIfAbsent(node, n -> new HashMap<>());
      last.forEach((m, v) -> closedLives.get(node).merge(m, v, Double::sum));
    }
  }

  /** Reads the node's counters now; a node that does not answer keeps its previous scrape. */
  void scrape(String node, URI base) {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(base.resolve("/actuator/prometheus"))
                  .header("Authorization", "Bearer " + key)
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() == 200) {
        Map<String, Double> values = parse(r.body());
        synchronized (this) {
          currentLife.put(node, values);
        }
      }
    } catch (IOException e) {
      // A dead or restarting node: its last scrape stands.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One counter summed over every series, node and life. */
  synchronized long total(String metric) {
    double sum = 0;
    for (Map<String, Double> life : closedLives.values()) {
      sum += life.getOrDefault(metric, 0.0);
    }
    for (Map<String, Double> life : currentLife.values()) {
      sum += life.getOrDefault(metric, 0.0);
    }
    return Math.round(sum);
  }

  private static Map<String, Double> parse(String body) {
    Map<String, Double> values = new HashMap<>();
    for (String line : body.split("\n")) {
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      int brace = line.indexOf('{');
      String name = line.substring(0, brace > 0 && brace < space ? brace : space);
      try {
        values.merge(name, Double.parseDouble(line.substring(space + 1)), Double::sum);
      } catch (NumberFormatException e) {
        // NaN or a malformed sample: not a counter we read.
      }
    }
    return values;
  }
}
