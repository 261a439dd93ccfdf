package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.LocalFact;
import java.util.List;
import java.util.Optional;

/**
 * Looks up the local view of one payment by each stable identity the statement may carry. A store
 * answers each with one indexed read, so matching a statement never holds the day in memory.
 */
public interface LocalFacts {

  Optional<LocalFact> byTradeOrderNo(String tradeOrderNo);

  /** The view whose refund order (or the flow's own compensation refund) has that number. */
  Optional<LocalFact> byRefundOrderNo(String refundOrderNo);

  Optional<LocalFact> byAttemptKey(String attemptKey);

  /**
   * Every refund of the payment of that trade order, one view each (its {@link
   * LocalFact#refundOrderNo()} and amount are the refund's): the flow's refund orders, the flow's
   * own refund once the flow is refunding or refunded, and the compensation refunds of its
   * attempts. For a refund line that names the payment (its metadata's attempt key, its trade order
   * number) but not our refund number. Empty when the payment has none.
   */
  List<LocalFact> refundsOfPayment(String tradeOrderNo);
}
