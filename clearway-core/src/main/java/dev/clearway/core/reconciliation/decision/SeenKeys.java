package dev.clearway.core.reconciliation.decision;

import java.util.HashSet;
import java.util.Set;

/**
 * The numbers the statement of one account-day showed: only the keys are kept, never the rows, so
 * the pass over local successes can tell which of them the statement never showed.
 */
public final class SeenKeys {
  private final Set<String> charges = new HashSet<>();
  private final Set<String> refunds = new HashSet<>();

  void charge(String tradeOrderNo) {
    if (tradeOrderNo != null) {
      charges.add(tradeOrderNo);
    }
  }

  /** A charge shown by a line settled outside the matcher (the store's agreeing lines). */
  public void chargeShown(String tradeOrderNo) {
    charge(tradeOrderNo);
  }

  void refund(String refundOrderNo) {
    if (refundOrderNo != null) {
      refunds.add(refundOrderNo);
    }
  }

  /** True the first time a charge of this trade order is accounted for. */
  boolean firstCharge(String tradeOrderNo) {
    return charges.add(tradeOrderNo);
  }

  /** True the first time a refund of this number is accounted for. */
  boolean firstRefund(String refundOrderNo) {
    return refunds.add(refundOrderNo);
  }

  public boolean sawCharge(String tradeOrderNo) {
    return charges.contains(tradeOrderNo);
  }

  public boolean sawRefund(String refundOrderNo) {
    return refunds.contains(refundOrderNo);
  }
}
