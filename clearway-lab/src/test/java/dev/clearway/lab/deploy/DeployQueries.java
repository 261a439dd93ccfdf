package dev.clearway.lab.deploy;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PromQL expressions of the files under {@code deploy/}: the alert rules' {@code expr} and the
 * dashboard panels' target {@code expr}, and the metric names each one reads.
 */
final class DeployQueries {
  private static final Pattern METRIC = Pattern.compile("\\bclearway_[a-z0-9_]+\\b");

  private DeployQueries() {}

  /** The repository's {@code deploy/} folder, found from the module's directory upward. */
  static Path deployDir() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("deploy"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no deploy/ folder above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("deploy");
  }

  /** Every alert rule's expression, by alert name. */
  @SuppressWarnings("unchecked")
  static Map<String, String> alertExpressions() throws IOException {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    try (Reader r =
        Files.newBufferedReader(deployDir().resolve("prometheus/clearway-alerts.yml"))) {
      Map<String, Object> root = new Yaml().load(r);
      for (Map<String, Object> group : (List<Map<String, Object>>) root.get("groups")) {
        for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
          out.put((String) rule.get("alert"), (String) rule.get("expr"));
        }
      }
    }
    return out;
  }

  /** Every dashboard query, prefixed with its panel's title. */
  static List<String> dashboardExpressions() throws IOException {
    JsonNode root =
        JsonMapper.builder()
            .build()
            .readTree(deployDir().resolve("grafana/clearway.json").toFile());
    List<String> out = new ArrayList<>();
    for (JsonNode panel : root.get("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.add(panel.get("title").asString() + ": " + target.get("expr").asString());
      }
    }
    return out;
  }

  /** The metric names a PromQL expression reads. */
  static Set<String> metricsOf(String expr) {
    Set<String> names = new TreeSet<>();
    Matcher m = METRIC.matcher(expr);
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }
}
