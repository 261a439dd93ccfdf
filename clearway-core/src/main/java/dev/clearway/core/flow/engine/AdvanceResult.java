package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.PayFlow;

/**
 * What one call of {@link Advancer#advance} left behind. {@code flow} is the last row read; it may
 * be stale the moment it is returned and is meant for display only.
 */
public record AdvanceResult(Outcome outcome, PayFlow flow) {

  public enum Outcome {
    /** The flow is terminal. */
    TERMINAL,
    /** The flow waits for a later retry (backoff, PROCESSING, UNKNOWN). */
    WAITING,
    /** Frozen for manual review. */
    FROZEN,
    /** Another worker holds the flow, or moved it first. */
    BUSY,
    /** No such flow. */
    NOT_FOUND
  }
}
