package dev.clearway.core.modelcheck.world;

import java.util.HashMap;
import java.util.Map;

/**
 * What the wallet holds, as a value: each trade order and each refund number it has seen, with how
 * many times money actually moved for it (the invariants count those).
 */
public record WalletLedger(Map<String, Charge> orders, Map<String, Refund> refunds) {

  public enum OrderState {
    PROCESSING,
    CHARGED,
    DECLINED,
    CLOSED
  }

  public enum RefundState {
    PROCESSING,
    REFUNDED,
    FAILED_RETRYABLE,
    FAILED_FINAL
  }

  /** One trade order: its state, its amount and how many charges it caused. */
  public record Charge(OrderState state, long amount, int charges) {}

  /** One refund number: its state, its trade and amount, and how many refunds it caused. */
  public record Refund(RefundState state, String tradeOrderNo, long amount, int refunds) {}

  public static WalletLedger empty() {
    return new WalletLedger(Map.of(), Map.of());
  }

  /** A ledger in which {@code tradeOrderNo} is already charged {@code amount}. */
  public static WalletLedger charged(String tradeOrderNo, long amount) {
    return new WalletLedger(
        Map.of(tradeOrderNo, new Charge(OrderState.CHARGED, amount, 1)), Map.of());
  }

  public boolean isCharged(String tradeOrderNo) {
    Charge c = orders.get(tradeOrderNo);
    return c != null && c.state() == OrderState.CHARGED;
  }

  public int charges(String tradeOrderNo) {
    Charge c = orders.get(tradeOrderNo);
    return c == null ? 0 : c.charges();
  }

  public int refundsOf(String refundNo) {
    Refund r = refunds.get(refundNo);
    return r == null ? 0 : r.refunds();
  }

  /** Money refunded on {@code tradeOrderNo}, over every refund number. */
  public long refundedAmount(String tradeOrderNo) {
    return refunds.values().stream()
        .filter(r -> r.tradeOrderNo().equals(tradeOrderNo))
        .mapToLong(r -> r.refunds() * r.amount())
        .sum();
  }

  WalletLedger withOrder(String tradeOrderNo, Charge charge) {
    Map<String, Charge> next = new HashMap<>(orders);
    next.put(tradeOrderNo, charge);
    return new WalletLedger(Map.copyOf(next), refunds);
  }

  WalletLedger withRefund(String refundNo, Refund refund) {
    Map<String, Refund> next = new HashMap<>(refunds);
    next.put(refundNo, refund);
    return new WalletLedger(orders, Map.copyOf(next));
  }
}
