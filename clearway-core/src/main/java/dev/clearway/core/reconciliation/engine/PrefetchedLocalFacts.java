package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.reconciliation.port.LocalFacts;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The local lookups of one chunk of statement lines, read ahead in two batched queries (attempt
 * keys, then the trade orders of the lines no key resolved) before the chunk is matched. A number
 * that was read ahead answers from memory, found or not; any other number (a sibling of another
 * goal, a refund order) is looked up in the store as usual. Holds one chunk at a time.
 */
final class PrefetchedLocalFacts implements LocalFacts {
  private final LocalFacts store;
  private final Map<String, Optional<LocalFact>> byKey = new HashMap<>();
  private final Map<String, Optional<LocalFact>> byTrade = new HashMap<>();

  PrefetchedLocalFacts(LocalFacts store) {
    this.store = store;
  }

  /** Forgets the previous chunk and reads ahead the lookups the charge lines of this one make. */
  void load(List<StatementFact> chunk) {
    byKey.clear();
    byTrade.clear();
    Set<String> keys = new LinkedHashSet<>();
    for (StatementFact line : chunk) {
      if (identifiesPayment(line) && line.attemptKey() != null) {
        keys.add(line.attemptKey());
      }
    }
    Map<String, LocalFact> keyed = keys.isEmpty() ? Map.of() : store.byAttemptKeys(keys);
    keys.forEach(k -> byKey.put(k, Optional.ofNullable(keyed.get(k))));
    Set<String> trades = new LinkedHashSet<>();
    for (StatementFact line : chunk) {
      boolean resolved = line.attemptKey() != null && keyed.containsKey(line.attemptKey());
      if (identifiesPayment(line) && !resolved && line.tradeOrderNo() != null) {
        trades.add(line.tradeOrderNo());
      }
    }
    Map<String, LocalFact> traded = trades.isEmpty() ? Map.of() : store.byTradeOrderNos(trades);
    trades.forEach(t -> byTrade.put(t, Optional.ofNullable(traded.get(t))));
  }

  /** Lines the matcher looks up by attempt key or trade order (refunds go by refund order). */
  private static boolean identifiesPayment(StatementFact line) {
    return line.kind() == StatementKind.CHARGE || line.kind() == StatementKind.ADJUSTMENT;
  }

  @Override
  public Optional<LocalFact> byTradeOrderNo(String tradeOrderNo) {
    Optional<LocalFact> ahead = byTrade.get(tradeOrderNo);
    return ahead != null ? ahead : store.byTradeOrderNo(tradeOrderNo);
  }

  @Override
  public Optional<LocalFact> byRefundOrderNo(String refundOrderNo) {
    return store.byRefundOrderNo(refundOrderNo);
  }

  @Override
  public List<LocalFact> refundsOfPayment(String tradeOrderNo) {
    return store.refundsOfPayment(tradeOrderNo);
  }

  @Override
  public Optional<LocalFact> byAttemptKey(String attemptKey) {
    Optional<LocalFact> ahead = byKey.get(attemptKey);
    return ahead != null ? ahead : store.byAttemptKey(attemptKey);
  }
}
