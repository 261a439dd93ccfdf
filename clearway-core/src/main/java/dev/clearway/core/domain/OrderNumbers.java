package dev.clearway.core.domain;

/**
 * Derives the external order numbers from the flow row's id. Pure and deterministic: a crash
 * between inserting the row and writing the numbers recovers to the very same numbers.
 */
public record OrderNumbers(String tradeOrderNo, String refundOrderNo) {

  public static OrderNumbers derive(long userId, long flowId) {
    String trade = "t_" + Long.toString(userId, 36) + "_" + Long.toString(flowId, 36);
    return new OrderNumbers(trade, "r_" + trade);
  }
}
