package dev.clearway.core.refund.engine;

import dev.clearway.core.refund.domain.RefundOrder;

/**
 * What one call of {@link RefundAdvancer#advance} left behind. {@code refund} is the last row read;
 * it may be stale the moment it is returned and is meant for display only.
 */
public record RefundAdvanceResult(Outcome outcome, RefundOrder refund) {

  public enum Outcome {
    /** SUCCESS, FAIL or CLOSED. */
    TERMINAL,
    /** Waits for a later query (backoff, PROCESSING, UNKNOWN, ABNORMAL). */
    WAITING,
    /** Another worker holds the refund, or moved it first. */
    BUSY,
    /** No such refund. */
    NOT_FOUND
  }
}
