package dev.clearway.core.reconciliation.domain;

import dev.clearway.core.flow.domain.GoalKey;
import java.util.Objects;

/**
 * The business side of a goal.
 *
 * @param attributedTradeOrderNo the trade order the business fulfilled the goal with, or null when
 *     it did not say
 */
public record BusinessFact(GoalKey goal, BusinessStatus status, String attributedTradeOrderNo) {

  public BusinessFact {
    Objects.requireNonNull(goal, "goal");
    Objects.requireNonNull(status, "status");
  }

  public boolean isDone() {
    return status == BusinessStatus.DONE;
  }

  /** True when the goal is done and the business names this very trade order. */
  public boolean attributes(String tradeOrderNo) {
    return isDone() && tradeOrderNo != null && tradeOrderNo.equals(attributedTradeOrderNo);
  }

  /** True when the goal is done and the business names a trade order. */
  public boolean isAttributed() {
    return isDone() && attributedTradeOrderNo != null;
  }
}
