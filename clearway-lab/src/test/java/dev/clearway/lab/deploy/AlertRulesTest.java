package dev.clearway.lab.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The alert rules are tested and documented: every alert has a promtool case where it fires and one
 * where it stays silent, and a paragraph in the runbook's "Alerts" section that its {@code runbook}
 * annotation points to. Where promtool is installed (CI installs it, see {@code .ci/run}) the rules
 * are checked and their unit tests run here as well.
 */
class AlertRulesTest {

  @Test
  @SuppressWarnings("unchecked")
  void everyAlertHasACaseWhereItFiresAndOneWhereItStaysSilent() throws IOException {
    Set<String> fires = new HashSet<>();
    Set<String> silent = new HashSet<>();
    try (Reader r =
        Files.newBufferedReader(
            DeployQueries.deployDir().resolve("prometheus/clearway-alerts.test.yml"))) {
      Map<String, Object> root = new Yaml().load(r);
      for (Map<String, Object> test : (List<Map<String, Object>>) root.get("tests")) {
        for (Map<String, Object> check : (List<Map<String, Object>>) test.get("alert_rule_test")) {
          List<?> expected = (List<?>) check.get("exp_alerts");
          String alert = (String) check.get("alertname");
          (expected == null || expected.isEmpty() ? silent : fires).add(alert);
        }
      }
    }
    Set<String> alerts = DeployQueries.alertExpressions().keySet();
    assertThat(alerts).hasSize(11);
    assertThat(fires).as("alerts with a case where they fire").containsAll(alerts);
    assertThat(silent).as("alerts with a case where they stay silent").containsAll(alerts);
  }

  @Test
  void everyAlertHasItsParagraphInTheRunbooksAlertsSection() throws IOException {
    String runbook =
        Files.readString(
            DeployQueries.deployDir().getParent().resolve("docs/runbook.md"),
            StandardCharsets.UTF_8);
    int from = runbook.indexOf("## Alerts\n");
    int to = runbook.indexOf("\n## ", from + 1);
    String section = runbook.substring(from, to < 0 ? runbook.length() : to);
    String rules =
        Files.readString(DeployQueries.deployDir().resolve("prometheus/clearway-alerts.yml"));
    for (String alert : DeployQueries.alertExpressions().keySet()) {
      assertThat(section).as("runbook paragraph of %s", alert).contains("### " + alert + "\n");
      assertThat(rules)
          .as("runbook link of %s", alert)
          .contains("docs/runbook.md#" + alert.toLowerCase(Locale.ROOT));
    }
  }

  @Test
  void promtoolChecksTheRulesAndRunsTheirUnitTests() throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool is not installed");
    Path dir = DeployQueries.deployDir().resolve("prometheus");
    assertThat(promtool(dir, "check", "rules", "clearway-alerts.yml")).contains("SUCCESS");
    assertThat(promtool(dir, "test", "rules", "clearway-alerts.test.yml")).contains("SUCCESS");
  }

  @Test
  void promtoolParsesEveryDashboardQuery(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/promtool")), "promtool is not installed");
    // Each query as a recording rule: promtool parses it as PromQL.
    StringBuilder rules = new StringBuilder("groups:\n  - name: dashboard\n    rules:\n");
    List<String> queries = DeployQueries.dashboardExpressions();
    for (int i = 0; i < queries.size(); i++) {
      String expr = queries.get(i).substring(queries.get(i).indexOf(": ") + 2);
      rules
          .append("      - record: dashboard:q")
          .append(i)
          .append("\n        expr: '")
          .append(expr.replace("'", "''"))
          .append("'\n");
    }
    Files.writeString(dir.resolve("dashboard.yml"), rules.toString());
    assertThat(promtool(dir, "check", "rules", "dashboard.yml"))
        .contains("SUCCESS: " + queries.size() + " rules found");
  }

  private static String promtool(Path dir, String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>(List.of("/usr/bin/promtool"));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    return out;
  }
}
