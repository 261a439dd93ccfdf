package dev.clearway.lab.migration;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.sim.LedgerEntry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * The migration run's invariants, from the database, the wallet's ledger and the legacy path's
 * ledger: no goal charged by both paths, no goal charged twice by one (Clearway's net of its
 * refunds), every Clearway flow terminal or with a person.
 */
final class MigrationChecks {
  private static final Set<String> TERMINAL =
      Set.of("PAY_FAIL", "BIZ_SUCCESS", "REFUNDED", "CLOSED");

  private final FlowSnapshot snapshot;
  private final List<LedgerEntry> ledger;
  private final SimLegacyPath legacy;
  private final List<String> violations = new ArrayList<>();
  private final Map<String, Long> counts = new TreeMap<>();

  MigrationChecks(FlowSnapshot snapshot, List<LedgerEntry> ledger, SimLegacyPath legacy) {
    this.snapshot = snapshot;
    this.ledger = ledger;
    this.legacy = legacy;
  }

  void run(IntFunction<GoalKey> goals, int n) {
    Map<String, Set<String>> tradeNos = new HashMap<>();
    for (FlowSnapshot.FlowRow f : snapshot.flows()) {
      if (f.tradeOrderNo() != null) {
        tradeNos.computeIfAbsent(f.goalId(), k -> new HashSet<>()).add(f.tradeOrderNo());
      }
      if (!TERMINAL.contains(f.status()) && !f.manualReview()) {
        violations.add("flow " + f.flowId() + " did not converge: " + f.status());
      }
    }
    Map<String, Integer> charged = byTradeNo(LedgerEntry.Kind.CHARGE);
    Map<String, Integer> refunded = byTradeNo(LedgerEntry.Kind.REFUND);
    for (int g = 0; g < n; g++) {
      GoalKey goal = goals.apply(g);
      String id = goal.merchant() + "/" + goal.userId() + "/" + goal.scene() + "/" + goal.bizKey();
      int clearway = 0;
      int back = 0;
      for (String no : tradeNos.getOrDefault(id, Set.of())) {
        clearway += charged.getOrDefault(no, 0);
        back += refunded.getOrDefault(no, 0);
      }
      check(id, clearway, back, legacy.charges(goal));
    }
  }

  private void check(String id, int clearway, int refunds, int legacyCharges) {
    if (clearway > 0) {
      add("clearway_charged_goals");
    }
    if (legacyCharges > 0) {
      add("legacy_charged_goals");
    }
    if (clearway > 0 && legacyCharges > 0) {
      add("double_charges");
      violations.add(
          "goal "
              + id
              + " charged by both paths: legacy "
              + legacyCharges
              + ", Clearway "
              + clearway);
    }
    if (clearway - refunds > 1) {
      violations.add("goal " + id + " charged " + clearway + " times by Clearway");
    }
    if (legacyCharges > 1) {
      violations.add("goal " + id + " charged " + legacyCharges + " times by the legacy path");
    }
  }

  private Map<String, Integer> byTradeNo(LedgerEntry.Kind kind) {
    Map<String, Integer> out = new HashMap<>();
    for (LedgerEntry e : ledger) {
      if (e.kind() == kind) {
        out.merge(e.tradeOrderNo(), 1, Integer::sum);
      }
    }
    return out;
  }

  private void add(String name) {
    counts.merge(name, 1L, Long::sum);
  }

  Map<String, Long> counts() {
    counts.putIfAbsent("double_charges", 0L);
    return counts;
  }

  List<String> violations() {
    return violations;
  }
}
