package dev.clearway.lab.engine;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.lab.chaos.FlowSnapshot.FlowRow;
import dev.clearway.lab.chaos.FlowSnapshot.HistoryRow;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimBusiness;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The money invariants, computed from the database (flows and their history, read by SQL) and the
 * doubles' ledgers only; nothing the engine says about itself.
 */
public final class Invariants {
  private static final Set<FlowStatus> MAY_BE_CHARGED =
      EnumSet.of(
          FlowStatus.PAYING,
          FlowStatus.PAYED,
          FlowStatus.BIZ_SUCCESS,
          FlowStatus.REFUNDING,
          FlowStatus.REFUNDED);

  private Invariants() {}

  /** What the ledgers and the database say at one moment. */
  public record Facts(
      FlowSnapshot snapshot,
      Map<String, Integer> charges,
      Map<String, Integer> refunds,
      Map<String, Long> refundedAmountByTrade,
      Map<String, Long> chargedAmountByTrade,
      Map<String, Integer> grantsByGoal,
      Map<String, String> grantedTo) {

    public boolean charged(FlowRow f) {
      return f.tradeOrderNo() != null && charges.getOrDefault(f.tradeOrderNo(), 0) > 0;
    }

    public boolean refunded(FlowRow f) {
      return f.refundOrderNo() != null && refunds.getOrDefault(f.refundOrderNo(), 0) > 0;
    }

    public boolean grantedHere(FlowRow f) {
      return f.tradeOrderNo() != null && f.tradeOrderNo().equals(grantedTo.get(f.goalId()));
    }
  }

  public static Facts read(EngineHarness h) {
    h.wallet.settleAll();
    h.business.settleAll();
    FlowSnapshot snapshot = FlowSnapshot.read(h.dataSource);
    Map<String, Integer> charges = new HashMap<>();
    Map<String, Integer> refunds = new HashMap<>();
    Map<String, Long> refundedAmount = new HashMap<>();
    Map<String, Long> chargedAmount = new HashMap<>();
    for (LedgerEntry e : h.wallet.ledger()) {
      if (e.kind() == LedgerEntry.Kind.CHARGE) {
        charges.merge(e.orderNo(), 1, Integer::sum);
        chargedAmount.merge(e.tradeOrderNo(), e.amount(), Long::sum);
      } else {
        refunds.merge(e.orderNo(), 1, Integer::sum);
        refundedAmount.merge(e.tradeOrderNo(), e.amount(), Long::sum);
      }
    }
    Map<String, Integer> grantsByGoal = new HashMap<>();
    Map<String, String> grantedTo = new HashMap<>();
    for (GrantEntry g : h.business.grants()) {
      String goal = SimBusiness.goalId(g.goal());
      grantsByGoal.merge(goal, 1, Integer::sum);
      grantedTo.putIfAbsent(goal, g.attributedOrderNo());
    }
    return new Facts(
        snapshot, charges, refunds, refundedAmount, chargedAmount, grantsByGoal, grantedTo);
  }

  /** Violations of the safety invariants, which must hold after every single action. */
  public static List<String> safety(EngineHarness h) {
    return safety(read(h));
  }

  public static List<String> safety(Facts facts) {
    List<String> v = new ArrayList<>();
    facts.charges.forEach((no, n) -> check(v, n <= 1, "trade order charged " + n + "x: " + no));
    facts.refunds.forEach((no, n) -> check(v, n <= 1, "refund order refunded " + n + "x: " + no));
    facts.refundedAmountByTrade.forEach(
        (trade, amount) ->
            check(
                v,
                amount <= facts.chargedAmountByTrade.getOrDefault(trade, 0L),
                "refunded more than charged: " + trade));
    facts.grantsByGoal.forEach((g, n) -> check(v, n <= 1, "goal granted " + n + "x: " + g));

    for (FlowRow f : facts.snapshot.flows()) {
      FlowStatus status = FlowStatus.valueOf(f.status());
      boolean charged = facts.charged(f);
      boolean refunded = facts.refunded(f);
      boolean grantedHere = facts.grantedHere(f);
      String where = "flow " + f.flowId() + " " + f.status() + " (" + f.tradeOrderNo() + ")";
      check(
          v,
          f.tradeOrderNo() == null
              || f.refundOrderNo() != null && f.refundOrderNo().equals("r_" + f.tradeOrderNo()),
          "refund number not derived from trade number: " + where);
      switch (status) {
        case BIZ_SUCCESS -> {
          check(v, charged, "BIZ_SUCCESS but never charged: " + where);
          check(v, grantedHere, "BIZ_SUCCESS but goal not granted to it: " + where);
          check(v, !refunded, "BIZ_SUCCESS and refunded: " + where);
        }
        case REFUNDED -> {
          check(v, charged, "REFUNDED but never charged: " + where);
          check(v, refunded, "REFUNDED but wallet has no refund: " + where);
          check(v, !grantedHere, "REFUNDED although the goal was granted to it: " + where);
        }
        default -> {}
      }
      check(v, !charged || MAY_BE_CHARGED.contains(status), "charged but " + where);
      check(
          v,
          !refunded || status == FlowStatus.REFUNDING || status == FlowStatus.REFUNDED,
          "refunded before the refund decision: " + where);
      check(v, !(refunded && grantedHere), "refunded although granted to it: " + where);
      check(
          v,
          !grantedHere || status == FlowStatus.PAYED || status == FlowStatus.BIZ_SUCCESS,
          "goal granted to it but " + where);
    }
    checkAttempts(facts.snapshot, v);
    checkHistory(facts.snapshot, v);
    return v;
  }

  /**
   * At quiescence: every flow is terminal or waits for a person, and every charged flow whose goal
   * was not granted to it was refunded or waits for a person.
   */
  public static List<String> convergence(EngineHarness h) {
    Facts facts = read(h);
    List<String> v = new ArrayList<>();
    for (FlowRow f : facts.snapshot.flows()) {
      FlowStatus status = FlowStatus.valueOf(f.status());
      String where = "flow " + f.flowId() + " " + f.status() + "/" + f.reviewState();
      check(v, status.isTerminal() || f.manualReview(), "not converged: " + where);
      boolean mustRefund = facts.charged(f) && !facts.grantedHere(f);
      check(
          v,
          !mustRefund || status == FlowStatus.REFUNDED || f.manualReview(),
          "charged, not granted to it, not refunded: " + where);
    }
    return v;
  }

  /** Attempts of one goal are numbered 1..n and all but the last definitely failed. */
  private static void checkAttempts(FlowSnapshot snapshot, List<String> v) {
    Map<String, List<FlowRow>> byGoal = new HashMap<>();
    for (FlowRow f : snapshot.flows()) {
      byGoal.computeIfAbsent(f.goalId(), k -> new ArrayList<>()).add(f);
    }
    byGoal.forEach(
        (goal, rows) -> {
          rows.sort(Comparator.comparingInt(FlowRow::attemptNo));
          for (int i = 0; i < rows.size(); i++) {
            FlowRow f = rows.get(i);
            check(v, f.attemptNo() == i + 1, "attempts of " + goal + " not 1..n");
            check(
                v,
                i == rows.size() - 1 || FlowStatus.valueOf(f.status()).isDefiniteFailure(),
                "attempt "
                    + (i + 2)
                    + " of "
                    + goal
                    + " while attempt "
                    + f.attemptNo()
                    + " is "
                    + f.status());
          }
        });
  }

  /**
   * History per flow: created as WAIT_PAY version 0, then every edge legal per {@link Transitions},
   * never out of a terminal state, versions consecutive, ending at the row's status and version.
   */
  private static void checkHistory(FlowSnapshot snapshot, List<String> v) {
    Map<Long, List<HistoryRow>> byFlow = new HashMap<>();
    for (HistoryRow h : snapshot.history()) {
      byFlow.computeIfAbsent(h.flowId(), k -> new ArrayList<>()).add(h);
    }
    for (FlowRow f : snapshot.flows()) {
      List<HistoryRow> rows = byFlow.getOrDefault(f.flowId(), List.of());
      String where = "history of flow " + f.flowId() + " " + rows;
      if (rows.isEmpty()) {
        v.add("no history: flow " + f.flowId());
        continue;
      }
      HistoryRow first = rows.get(0);
      check(
          v,
          first.fromStatus() == null && "WAIT_PAY".equals(first.toStatus()) && first.version() == 0,
          "does not start at WAIT_PAY v0: " + where);
      for (int i = 1; i < rows.size(); i++) {
        HistoryRow prev = rows.get(i - 1);
        HistoryRow h = rows.get(i);
        // A row that keeps its status is a person's RESUME (a version bump, no transition).
        boolean ok =
            h.fromStatus() != null
                && h.fromStatus().equals(prev.toStatus())
                && !FlowStatus.valueOf(h.fromStatus()).isTerminal()
                && (Transitions.isLegal(
                        FlowStatus.valueOf(h.fromStatus()), FlowStatus.valueOf(h.toStatus()))
                    || h.fromStatus().equals(h.toStatus()))
                && h.version() == prev.version() + 1;
        check(v, ok, "bad edge " + h.fromStatus() + "->" + h.toStatus() + ": " + where);
      }
      HistoryRow last = rows.get(rows.size() - 1);
      check(
          v,
          last.toStatus().equals(f.status()) && last.version() == f.version(),
          "ends at "
              + last.toStatus()
              + "@"
              + last.version()
              + " but row is "
              + f.status()
              + "@"
              + f.version());
    }
  }

  private static void check(List<String> v, boolean ok, String message) {
    if (!ok) {
      v.add(message);
    }
  }
}
