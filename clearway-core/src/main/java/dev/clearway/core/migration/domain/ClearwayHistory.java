package dev.clearway.core.migration.domain;

import dev.clearway.core.flow.domain.PayFlow;
import java.util.List;

/** What Clearway already holds for a goal. */
public enum ClearwayHistory {
  /** No attempt: the goal has never been on Clearway. */
  NONE,
  /** Every attempt is terminal. */
  ENDED,
  /** An attempt is not terminal: a create answers it (idempotent replay). */
  LIVE;

  public static ClearwayHistory of(List<PayFlow> attempts) {
    if (attempts.isEmpty()) {
      return NONE;
    }
    return attempts.stream().anyMatch(f -> !f.status().isTerminal()) ? LIVE : ENDED;
  }
}
