package dev.clearway.core.flow.port;

/**
 * A bounded queue refused work because it was full. What was refused is not lost: a payment or
 * refund already created is taken over by the scanner once its creation lease expires, and a
 * dropped wake-up or hand-off leaves the row due for the scanner. Implementations count by {@code
 * pool}.
 */
@FunctionalInterface
public interface OverloadEvents {

  /**
   * @param pool the refusing queue, a small fixed set ({@code payment-sync}, {@code refund-sync},
   *     {@code flow-workers}, {@code flow-wakeups}, ...)
   */
  void rejected(String pool);

  OverloadEvents NONE = pool -> {};
}
