package dev.clearway.core.modelcheck.world;

/**
 * What the business service holds about the one goal, as a value: the trade order the goal was
 * granted to (null while not granted), and whether another order has taken the goal.
 */
public record BusinessLedger(String grantedTo, boolean foreignGrantUsed) {

  /** The trade order number of a payment the engine does not know (a goal granted elsewhere). */
  public static final String OTHER_ORDER = "t_other";

  public static BusinessLedger notGranted() {
    return new BusinessLedger(null, false);
  }

  public boolean isOwnedBy(String tradeOrderNo) {
    return tradeOrderNo != null && tradeOrderNo.equals(grantedTo);
  }
}
