package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.LocalFact;
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
}
