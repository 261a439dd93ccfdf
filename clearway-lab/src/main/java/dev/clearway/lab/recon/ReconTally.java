package dev.clearway.lab.recon;

import dev.clearway.sim.psp.PspInjections.Injected;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The injected differences against those reconciliation found, each side keyed by class and the
 * number it is about (trade order number, or refund order number for a refund). An injected late
 * charge is found as LATE_CHARGE, or as CHARGED_LOCAL_PAYING while its flow is still paying.
 */
record ReconTally(
    Map<String, Long> injected,
    Map<String, Long> found,
    List<Injected> missed,
    List<FoundDifference> falseDifferences) {

  /** One recorded difference, as the harness reads it back. */
  record FoundDifference(
      long id,
      String kind,
      String tradeOrderNo,
      String refundOrderNo,
      String state,
      String repairKind,
      String account,
      String statementDay,
      Long statementAmount,
      Long localAmount,
      String detail) {

    /** Whether the engine repairs this class itself (no person). */
    boolean automatic() {
      return repairKind != null && repairKind.startsWith("AUTO_");
    }

    String key() {
      return "REFUND_SETTLED_LOCAL_PENDING".equals(kind) || "REFUND_NOT_AT_PSP".equals(kind)
          ? refundOrderNo
          : tradeOrderNo;
    }
  }

  static ReconTally of(List<Injected> injections, List<FoundDifference> differences) {
    Map<String, Long> injected = new TreeMap<>();
    injections.forEach(i -> injected.merge(i.kind(), 1L, Long::sum));
    Map<String, Long> found = new TreeMap<>();
    differences.forEach(d -> found.merge(d.kind(), 1L, Long::sum));
    List<FoundDifference> unmatched = new ArrayList<>(differences);
    List<Injected> missed = new ArrayList<>();
    for (Injected i : injections) {
      FoundDifference match = null;
      for (FoundDifference d : unmatched) {
        if (accepts(i.kind()).contains(d.kind()) && i.key().equals(d.key())) {
          match = d;
          break;
        }
      }
      if (match == null) {
        missed.add(i);
      } else {
        unmatched.remove(match);
      }
    }
    return new ReconTally(injected, found, missed, unmatched);
  }

  /** The classes under which an injected class counts as found. */
  static Set<String> accepts(String injectedKind) {
    return "LATE_CHARGE".equals(injectedKind)
        ? Set.of("LATE_CHARGE", "CHARGED_LOCAL_PAYING")
        : Set.of(injectedKind);
  }
}
