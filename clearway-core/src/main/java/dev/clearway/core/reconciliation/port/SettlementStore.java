package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.SettlementStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The settlement status of each payment, written only by reconciliation and kept apart from the
 * flow's status: a later statement may change it (a reversal), and each change is a history row;
 * the flow's own history is never touched.
 */
public interface SettlementStore {

  /** One settlement observation of a trade order. */
  record Mark(
      String tradeOrderNo,
      SettlementStatus status,
      Long differenceId,
      Long statementFileId,
      Long statementLineNo,
      Instant at) {}

  /** Records the status; a no-op when it is already the same (idempotent re-runs). */
  void mark(Mark mark);

  Optional<SettlementStatus> status(String tradeOrderNo);

  /**
   * Records many marks, each as {@link #mark} would, of distinct trade orders. A store writes them
   * in one transaction with a few statements; by default, one mark each.
   */
  default void markAll(List<Mark> marks) {
    marks.forEach(this::mark);
  }

  /** The statuses of many trade orders at once; a trade order without one is absent. */
  default Map<String, SettlementStatus> statuses(Collection<String> tradeOrderNos) {
    Map<String, SettlementStatus> found = new HashMap<>();
    for (String number : tradeOrderNos) {
      status(number).ifPresent(s -> found.put(number, s));
    }
    return found;
  }
}
