package dev.clearway.core.refund.domain;

/**
 * The wallet's idempotency key of an after-sales refund: {@code a_{trade_order_no}_{seq}}, fixed at
 * creation and never re-minted. The prefix keeps it apart from the compensation refund number
 * {@code r_{trade_order_no}} ({@link dev.clearway.core.flow.domain.OrderNumbers}); refund_order's
 * check constraint holds the same formula.
 */
public final class RefundNumbers {
  private RefundNumbers() {}

  public static String of(String tradeOrderNo, int seq) {
    if (tradeOrderNo == null || seq < 1) {
      throw new IllegalArgumentException("a refund number needs a trade order number and seq >= 1");
    }
    return "a_" + tradeOrderNo + "_" + seq;
  }
}
