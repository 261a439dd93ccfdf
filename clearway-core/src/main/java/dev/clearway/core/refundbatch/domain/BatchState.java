package dev.clearway.core.refundbatch.domain;

import java.util.EnumSet;
import java.util.Set;

/**
 * The life of a refund batch. {@code refund_batch_guard} holds the same edges in the database.
 *
 * <pre>
 * PROPOSED -> APPROVED -> RUNNING <-> PAUSED -> CANCELLED
 *    |           |           |
 *    |           +-> PAUSED  +-> DONE
 *    +-> REJECTED | CANCELLED
 * </pre>
 */
public enum BatchState {
  PROPOSED,
  APPROVED,
  RUNNING,
  PAUSED,
  DONE,
  REJECTED,
  CANCELLED;

  public boolean isTerminal() {
    return this == DONE || this == REJECTED || this == CANCELLED;
  }

  /** States a runner may claim: approved and not yet started, or running with a free lease. */
  public boolean runnable() {
    return this == APPROVED || this == RUNNING;
  }

  public Set<BatchState> next() {
    return switch (this) {
      case PROPOSED -> EnumSet.of(APPROVED, REJECTED, CANCELLED);
      case APPROVED -> EnumSet.of(RUNNING, PAUSED);
      case RUNNING -> EnumSet.of(PAUSED, DONE);
      case PAUSED -> EnumSet.of(RUNNING, CANCELLED);
      case DONE, REJECTED, CANCELLED -> EnumSet.noneOf(BatchState.class);
    };
  }

  public boolean canMoveTo(BatchState to) {
    return next().contains(to);
  }
}
