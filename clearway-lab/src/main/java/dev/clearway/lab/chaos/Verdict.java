package dev.clearway.lab.chaos;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.json.JsonMapper;

/** The money invariants, counted from the database and the simulators' ledgers. */
public record Verdict(
    int payments,
    int converged,
    Map<String, Integer> byStatus,
    int manualReview,
    Map<String, Integer> violations,
    long wallClockMs) {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  public boolean passed() {
    return converged == payments && violations.values().stream().allMatch(v -> v == 0);
  }

  /**
   * One JSON object: payments, converged, byStatus, manualReview, violations (each invariant with
   * its count), wallClockMs, in that order.
   */
  public String toJson() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("payments", payments);
    json.put("converged", converged);
    json.put("byStatus", byStatus);
    json.put("manualReview", manualReview);
    json.put("violations", violations);
    json.put("wallClockMs", wallClockMs);
    return JSON.writeValueAsString(json);
  }

  static Map<String, Integer> emptyViolations() {
    Map<String, Integer> v = new TreeMap<>();
    for (String k :
        new String[] {
          "doubleCharge",
          "doubleRefund",
          "doubleGrant",
          "refundAfterBizSuccess",
          "missedRefund",
          "falseTerminal",
          "notConverged",
          "illegalTransition"
        }) {
      v.put(k, 0);
    }
    return v;
  }
}
