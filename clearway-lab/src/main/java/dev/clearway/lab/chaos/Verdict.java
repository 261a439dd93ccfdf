package dev.clearway.lab.chaos;

import java.util.Map;
import java.util.TreeMap;

/** The invariants of seed 000 section 15, counted from the database and the simulators' ledgers. */
public record Verdict(
    int payments,
    int converged,
    Map<String, Integer> byStatus,
    int manualReview,
    Map<String, Integer> violations,
    long wallClockMs) {

  public boolean passed() {
    return converged == payments && violations.values().stream().allMatch(v -> v == 0);
  }

  public String toJson() {
    StringBuilder b = new StringBuilder();
    b.append("{\"payments\":").append(payments);
    b.append(",\"converged\":").append(converged);
    b.append(",\"byStatus\":").append(json(byStatus));
    b.append(",\"manualReview\":").append(manualReview);
    b.append(",\"violations\":").append(json(violations));
    b.append(",\"wallClockMs\":").append(wallClockMs);
    return b.append('}').toString();
  }

  private static String json(Map<String, Integer> m) {
    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, Integer> e : m.entrySet()) {
      b.append(b.length() == 1 ? "" : ",");
      b.append('"').append(e.getKey()).append("\":").append(e.getValue());
    }
    return b.append('}').toString();
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
