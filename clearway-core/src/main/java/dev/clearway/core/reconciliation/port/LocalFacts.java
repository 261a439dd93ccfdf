package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.LocalFact;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
   * The views of many trade orders at once, keyed by trade order no; a number without a local row
   * is absent. A store answers with one query, so a statement is matched in batches of lines rather
   * than one round trip per line; by default, one lookup each.
   */
  default Map<String, LocalFact> byTradeOrderNos(Collection<String> tradeOrderNos) {
    Map<String, LocalFact> found = new HashMap<>();
    for (String number : tradeOrderNos) {
      byTradeOrderNo(number).ifPresent(fact -> found.put(number, fact));
    }
    return found;
  }

  /** The views of many attempt keys at once, keyed by attempt key, as {@link #byAttemptKey}. */
  default Map<String, LocalFact> byAttemptKeys(Collection<String> attemptKeys) {
    Map<String, LocalFact> found = new HashMap<>();
    for (String key : attemptKeys) {
      byAttemptKey(key).ifPresent(fact -> found.put(key, fact));
    }
    return found;
  }

  /**
   * Every refund of the payment of that trade order, one view each (its {@link
   * LocalFact#refundOrderNo()} and amount are the refund's): the flow's refund orders, the flow's
   * own refund once the flow is refunding or refunded, and the compensation refunds of its
   * attempts. For a refund line that names the payment (its metadata's attempt key, its trade order
   * number) but not our refund number. Empty when the payment has none.
   */
  List<LocalFact> refundsOfPayment(String tradeOrderNo);
}
