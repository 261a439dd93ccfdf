package dev.clearway.core.flow.domain;

/**
 * Derives the external order numbers from the flow row's id. Pure and deterministic: a crash
 * between inserting the row and writing the numbers recovers to the very same numbers.
 */
public record OrderNumbers(String tradeOrderNo, String refundOrderNo) {

  public static OrderNumbers derive(long userId, long flowId) {
    String trade = "t_" + Long.toString(userId, 36) + "_" + Long.toString(flowId, 36);
    return new OrderNumbers(trade, "r_" + trade);
  }

  /**
   * The flow id a trade order number was derived from, or empty when it is not one of ours (used to
   * wake a flow when the channel layer finishes one of its attempts).
   */
  public static java.util.OptionalLong flowIdOf(String tradeOrderNo) {
    if (tradeOrderNo == null || !tradeOrderNo.startsWith("t_")) {
      return java.util.OptionalLong.empty();
    }
    String[] parts = tradeOrderNo.split("_");
    if (parts.length != 3) {
      return java.util.OptionalLong.empty();
    }
    try {
      return java.util.OptionalLong.of(Long.parseLong(parts[2], 36));
    } catch (NumberFormatException e) {
      return java.util.OptionalLong.empty();
    }
  }
}
