package dev.clearway.lab.migration;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The migration chaos run's result: counts and every violation (a goal charged on both paths, a
 * path that charged a goal twice, a Clearway payment that did not converge).
 */
public record MigrationChaosReport(
    int goals, long seed, Map<String, Long> counts, List<String> violations, double seconds) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  public boolean passed() {
    return violations.isEmpty();
  }

  /** One JSON line. */
  public String toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("scenario", "migration");
    json.put("goals", goals);
    json.put("seed", seed);
    json.put("violations", violations.size());
    json.putAll(counts);
    json.put("seconds", Math.round(seconds * 10) / 10.0);
    return JSON.writeValueAsString(json);
  }
}
