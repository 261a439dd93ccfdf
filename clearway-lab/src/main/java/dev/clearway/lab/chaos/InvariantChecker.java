package dev.clearway.lab.chaos;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.lab.chaos.FlowSnapshot.FlowRow;
import dev.clearway.lab.chaos.FlowSnapshot.HistoryRow;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimBusiness;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks the invariants without trusting the engine: only the flow rows, the history rows, the
 * wallet's ledger and the business service's grants.
 *
 * <ul>
 *   <li>charges per trade_order_no at most 1; refunds per refund_order_no at most 1; a goal is
 *       granted at most once;
 *   <li>BIZ_SUCCESS: charged, granted to this order, never refunded;
 *   <li>REFUNDED: charged, refunded, not granted to this order;
 *   <li>PAY_FAIL and CLOSED: never charged;
 *   <li>charged and not granted to this order: REFUNDED, or in manual review;
 *   <li>history: starts at WAIT_PAY version 0, every edge legal (or, for a person's RESUME, the
 *       same status), versions consecutive, never out of a terminal state, and ends at the row's
 *       status.
 * </ul>
 */
public final class InvariantChecker {

  /** Human-readable descriptions of the first violations, for the report. */
  private final List<String> examples = new ArrayList<>();

  public List<String> examples() {
    return examples;
  }

  /** Charges and refunds per order number, and the grants per goal, from the simulators. */
  private record Ledgers(
      Map<String, Integer> charges,
      Map<String, Integer> refunds,
      Map<String, String> grantedTo,
      Map<String, Integer> grantCount) {

    static Ledgers of(List<LedgerEntry> ledger, List<GrantEntry> grants) {
      Map<String, Integer> charges = new HashMap<>();
      Map<String, Integer> refunds = new HashMap<>();
      for (LedgerEntry e : ledger) {
        (e.kind() == LedgerEntry.Kind.CHARGE ? charges : refunds)
            .merge(e.orderNo(), 1, Integer::sum);
      }
      Map<String, String> grantedTo = new HashMap<>();
      Map<String, Integer> grantCount = new HashMap<>();
      for (GrantEntry g : grants) {
        String goal = SimBusiness.goalId(g.goal());
        grantCount.merge(goal, 1, Integer::sum);
        grantedTo.putIfAbsent(goal, g.attributedOrderNo());
      }
      return new Ledgers(charges, refunds, grantedTo, grantCount);
    }
  }

  public Verdict check(
      FlowSnapshot snapshot,
      List<LedgerEntry> ledger,
      List<GrantEntry> grants,
      int expectedPayments,
      long wallClockMs) {
    Map<String, Integer> v = Verdict.emptyViolations();
    Ledgers l = Ledgers.of(ledger, grants);
    l.charges().forEach((no, n) -> count(v, "doubleCharge", n > 1, "charged " + n + "x: " + no));
    l.refunds().forEach((no, n) -> count(v, "doubleRefund", n > 1, "refunded " + n + "x: " + no));
    l.grantCount().forEach((g, n) -> count(v, "doubleGrant", n > 1, "granted " + n + "x: " + g));

    Map<String, Integer> byStatus = new TreeMap<>();
    int converged = 0;
    int manual = 0;
    for (FlowRow f : snapshot.flows()) {
      byStatus.merge(f.status(), 1, Integer::sum);
      if (f.manualReview()) {
        manual++;
      }
      if (checkFlow(f, l, v)) {
        converged++;
      }
    }
    checkHistory(snapshot, v);
    return new Verdict(expectedPayments, converged, byStatus, manual, v, wallClockMs);
  }

  /** Checks one flow against the ledgers; returns whether it converged. */
  private boolean checkFlow(FlowRow f, Ledgers l, Map<String, Integer> v) {
    FlowStatus status = FlowStatus.valueOf(f.status());
    boolean charged = l.charges().getOrDefault(f.tradeOrderNo(), 0) > 0;
    boolean refunded = l.refunds().getOrDefault(f.refundOrderNo(), 0) > 0;
    boolean grantedHere =
        f.tradeOrderNo() != null && f.tradeOrderNo().equals(l.grantedTo().get(f.goalId()));
    boolean manualReview = f.manualReview();
    boolean converged = status.isTerminal() || manualReview;
    if (!converged) {
      count(v, "notConverged", true, "not converged: flow " + f.flowId() + " " + f.status());
    }
    count(
        v,
        "refundAfterBizSuccess",
        refunded && (grantedHere || status == FlowStatus.BIZ_SUCCESS),
        "refunded although granted to it: flow " + f.flowId());
    String where = "flow " + f.flowId() + " " + f.status();
    switch (status) {
      case BIZ_SUCCESS -> count(v, "falseTerminal", !charged || !grantedHere, where);
      case REFUNDED -> count(v, "falseTerminal", !charged || !refunded || grantedHere, where);
      case PAY_FAIL, CLOSED -> count(v, "missedRefund", charged && !manualReview, where);
      case WAIT_PAY, PAYING, PAYED, REFUNDING -> {}
    }
    boolean mustRefund = charged && !grantedHere;
    count(
        v,
        "missedRefund",
        mustRefund
            && converged
            && status != FlowStatus.REFUNDED
            && status != FlowStatus.PAY_FAIL
            && status != FlowStatus.CLOSED
            && !manualReview,
        "charged, not granted, not refunded: " + where);
    return converged;
  }

  private void checkHistory(FlowSnapshot snapshot, Map<String, Integer> v) {
    Map<Long, String> finalStatus = new HashMap<>();
    for (FlowRow f : snapshot.flows()) {
      finalStatus.put(f.flowId(), f.status());
    }
    long currentFlow = -1;
    String last = null;
    long lastVersion = -1;
    for (HistoryRow h : snapshot.history()) {
      if (h.flowId() != currentFlow) {
        checkEnd(currentFlow, last, finalStatus, v);
        currentFlow = h.flowId();
        last = null;
        lastVersion = -1;
      }
      boolean ok;
      if (h.fromStatus() == null) {
        ok = last == null && "WAIT_PAY".equals(h.toStatus()) && h.version() == 0;
      } else {
        FlowStatus from = FlowStatus.valueOf(h.fromStatus());
        FlowStatus to = FlowStatus.valueOf(h.toStatus());
        // from == to: a person's RESUME, which bumps the version without a transition.
        ok =
            h.fromStatus().equals(last)
                && !from.isTerminal()
                && (Transitions.isLegal(from, to) || from == to)
                && h.version() == lastVersion + 1;
      }
      count(
          v,
          "illegalTransition",
          !ok,
          "history flow " + h.flowId() + ": " + h.fromStatus() + "->" + h.toStatus());
      last = h.toStatus();
      lastVersion = h.version();
    }
    checkEnd(currentFlow, last, finalStatus, v);
  }

  private void checkEnd(long flow, String last, Map<Long, String> finals, Map<String, Integer> v) {
    if (flow >= 0) {
      count(
          v,
          "illegalTransition",
          !finals.get(flow).equals(last),
          "history of flow " + flow + " ends at " + last);
    }
  }

  private void count(Map<String, Integer> v, String key, boolean violated, String example) {
    if (violated) {
      v.merge(key, 1, Integer::sum);
      if (examples.size() < 20) {
        examples.add(key + ": " + example);
      }
    }
  }
}
