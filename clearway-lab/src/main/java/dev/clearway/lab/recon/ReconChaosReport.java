package dev.clearway.lab.recon;

import dev.clearway.lab.channel.ChannelInvariants.Violation;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

/**
 * The verdict of a reconciliation chaos run: what was injected and found by class, what the repairs
 * did, what was missed or found without cause, the imports refused, the refunds each PSP made
 * (which must reconcile without a difference unless one was injected) and the violations after the
 * repairs. Passed only when nothing was missed, nothing found without cause and nothing violated.
 */
public record ReconChaosReport(
    int payments,
    long seed,
    ReconTally tally,
    long autoRepaired,
    long tickets,
    int importsRefused,
    Map<String, Long> pspRefunds,
    List<Violation> violations,
    double seconds) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  public boolean passed() {
    return tally.missed().isEmpty() && tally.falseDifferences().isEmpty() && violations.isEmpty();
  }

  public List<Violation> violationList() {
    return violations;
  }

  /** Human-readable lines for what made the run fail. */
  public List<String> findings() {
    List<String> out = new java.util.ArrayList<>();
    tally.missed().forEach(i -> out.add("missed: " + i.kind() + " " + i.key()));
    tally
        .falseDifferences()
        .forEach(
            d ->
                out.add(
                    "false difference: "
                        + d.kind()
                        + " "
                        + (d.key() == null ? d.tradeOrderNo() : d.key())
                        + " ("
                        + d.detail()
                        + ")"));
    violations.forEach(v -> out.add("violation: " + v.code() + " " + v.subject()));
    return out;
  }

  /** One JSON line; {@code violations} by code, with their total. */
  public String toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("scenario", "reconcile");
    json.put("payments", payments);
    json.put("seed", seed);
    json.put("injected", tally.injected());
    json.put("found", tally.found());
    json.put("autoRepaired", autoRepaired);
    json.put("tickets", tickets);
    json.put("missed", tally.missed().size());
    json.put("falseDifferences", tally.falseDifferences().size());
    json.put("importsRefused", importsRefused);
    json.put("pspRefunds", pspRefunds);
    Map<String, Long> byCode = new TreeMap<>();
    violations.forEach(v -> byCode.merge(v.code(), 1L, Long::sum));
    json.put("violations", violations.size());
    json.put("violationsByCode", byCode);
    json.put(
        "seconds",
        Double.isFinite(seconds)
            ? BigDecimal.valueOf(seconds).setScale(1, RoundingMode.HALF_UP)
            : seconds);
    json.put("passed", passed());
    return JSON.writeValueAsString(json);
  }
}
