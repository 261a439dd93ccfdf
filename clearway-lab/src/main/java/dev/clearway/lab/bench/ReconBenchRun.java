package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.util.Map;
import java.util.TreeMap;

/** The timed reconciliation of the bench's account-day, and what it found by class. */
final class ReconBenchRun {
  private ReconBenchRun() {}

  /** The differences a run recorded, by class name. */
  record Found(Map<String, Long> byClass) {
    Found {
      byClass = new TreeMap<>(byClass);
    }

    long total() {
      return byClass.values().stream().mapToLong(Long::longValue).sum();
    }

    /** True when every planted class was found at least as often as planted. */
    boolean covers(Map<String, Integer> planted) {
      return planted.entrySet().stream()
          .allMatch(e -> byClass.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }
  }

  static Found reconcile(Database db, ReconBenchPlan plan, long accountId) {
    return new Found(Map.of());
  }
}
