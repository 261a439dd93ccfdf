package dev.clearway.lab.channel;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** The verdict of a {@link ChannelChaos} run and the counts behind it. */
public record ChannelChaosReport(
    int payments,
    long seed,
    List<ChannelInvariants.Violation> violations,
    Map<String, Long> counts,
    Map<String, Double> metrics,
    double seconds) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  public boolean passed() {
    return violations.isEmpty();
  }

  /**
   * One JSON line: scenario, payments, seed, the number of violations, the counts, seconds (one
   * decimal).
   */
  public String toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("scenario", "channels");
    json.put("payments", payments);
    json.put("seed", seed);
    json.put("violations", violations.size());
    json.putAll(counts);
    json.put(
        "seconds",
        Double.isFinite(seconds)
            ? BigDecimal.valueOf(seconds).setScale(1, RoundingMode.HALF_UP)
            : seconds);
    return JSON.writeValueAsString(json);
  }
}
