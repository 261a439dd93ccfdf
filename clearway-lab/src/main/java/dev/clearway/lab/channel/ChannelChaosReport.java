package dev.clearway.lab.channel;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The verdict of a {@link ChannelChaos} run and the counts behind it. */
public record ChannelChaosReport(
    int payments,
    long seed,
    List<ChannelInvariants.Violation> violations,
    Map<String, Long> counts,
    Map<String, Double> metrics,
    double seconds) {

  public boolean passed() {
    return violations.isEmpty();
  }

  /** One JSON line: scenario, payments, seed, the number of violations, the counts, seconds. */
  public String toJson() {
    StringBuilder json = new StringBuilder("{\"scenario\":\"channels\",\"payments\":");
    json.append(payments).append(",\"seed\":").append(seed);
    json.append(",\"violations\":").append(violations.size());
    counts.forEach((k, v) -> json.append(",\"").append(k).append("\":").append(v));
    json.append(String.format(Locale.ROOT, ",\"seconds\":%.1f}", seconds));
    return json.toString();
  }
}
