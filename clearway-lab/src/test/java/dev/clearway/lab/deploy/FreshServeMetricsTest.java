package dev.clearway.lab.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import dev.clearway.lab.serve.Serve;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A fresh {@code serve --channels}, scraped once before any payment: every metric that an alert
 * rule ({@code deploy/prometheus/clearway-alerts.yml}) or a dashboard query ({@code
 * deploy/grafana/clearway.json}) names is already exported with a number, so no rule ever waits on
 * an absent series and no panel stays empty on a quiet service. The names come from parsing the
 * files: a rule or panel naming a metric the service does not export fails here.
 */
class FreshServeMetricsTest {
  private static final String OPERATOR_KEY = "ok_test_deploy_metrics_4d1c";

  private static Serve.Running running;
  private static Map<String, Double> scraped;
  private static String exposition;

  @BeforeAll
  static void startAndScrapeBeforeTraffic() throws Exception {
    Serve.Options options =
        Serve.Options.defaults()
            .withPort(0)
            .withChannels()
            .withProperties(
                Map.of(
                    "clearway.keys.merchant",
                    "mk_test_deploy_metrics_7e2a9b",
                    "clearway.keys.operator",
                    "olivia=" + OPERATOR_KEY,
                    "clearway.keys.approver",
                    "aaron=ak_test_deploy_metrics_5f3c"));
    running = Serve.start(options, new PrintStream(OutputStream.nullOutputStream()));
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpResponse<String> prometheus =
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + running.port() + "/actuator/prometheus"))
                .header("Authorization", "Bearer " + OPERATOR_KEY)
                .GET()
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(prometheus.statusCode()).isEqualTo(200);
    exposition = prometheus.body();
    scraped = samples(exposition);
  }

  @AfterAll
  static void stop() throws Exception {
    if (running != null) {
      running.close();
    }
  }

  @Test
  void everyMetricAnAlertRuleNamesIsExportedWithANumberBeforeAnyPayment() throws Exception {
    Map<String, String> rules = DeployQueries.alertExpressions();
    assertThat(rules).hasSizeGreaterThanOrEqualTo(11);
    Map<String, Set<String>> missing = new TreeMap<>();
    rules.forEach((alert, expr) -> missingOf(alert, expr, missing));
    assertThat(missing).as("metrics named by alert rules and not exported").isEmpty();
    // Before any payment the counters are there at zero: nothing has ended yet.
    assertThat(scraped.get("clearway_transitions_total")).isZero();
    assertThat(scraped.get("clearway_channel_psp_answers_total")).isZero();
  }

  @Test
  void everyMetricADashboardQueryNamesIsExportedWithANumberBeforeAnyPayment() throws Exception {
    List<String> queries = DeployQueries.dashboardExpressions();
    assertThat(queries).hasSizeGreaterThanOrEqualTo(20);
    Map<String, Set<String>> missing = new TreeMap<>();
    for (String query : queries) {
      missingOf(query, query, missing);
    }
    assertThat(missing).as("metrics named by dashboard queries and not exported").isEmpty();
  }

  @Test
  void refundBatchesPerStateAndTheirItemsPerOutcomeAreExportedAtZeroBeforeAnyBatch() {
    for (BatchState state : BatchState.values()) {
      assertThat(exposition)
          .as("clearway_refund_batches of state %s", state)
          .containsPattern(
              "(?m)^clearway_refund_batches\\{[^}]*state=\"" + state + "\"[^}]*} 0\\.0$");
    }
    for (ItemOutcome outcome : ItemOutcome.values()) {
      assertThat(exposition)
          .as("clearway_refund_batch_items of outcome %s", outcome)
          .containsPattern(
              "(?m)^clearway_refund_batch_items\\{[^}]*outcome=\"" + outcome + "\"[^}]*} 0\\.0$");
    }
  }

  private static void missingOf(String where, String expr, Map<String, Set<String>> missing) {
    Set<String> names = DeployQueries.metricsOf(expr);
    assertThat(names).as("metrics of %s", where).isNotEmpty();
    for (String name : names) {
      Double value = scraped.get(name);
      if (value == null || value.isNaN()) {
        missing.computeIfAbsent(where, k -> new TreeSet<>()).add(name);
      }
    }
  }

  /** Each sample name with the sum of its series' values (NaN if any series is NaN). */
  private static Map<String, Double> samples(String exposition) {
    Map<String, Double> out = new HashMap<>();
    for (String line : exposition.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int end = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      String name = line.substring(0, end < 0 ? line.indexOf(' ') : end);
      double value = Double.parseDouble(line.substring(space + 1));
      out.merge(name, value, Double::sum);
    }
    return out;
  }
}
