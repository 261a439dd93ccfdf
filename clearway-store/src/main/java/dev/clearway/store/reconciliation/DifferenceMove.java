package dev.clearway.store.reconciliation;

import java.time.Instant;

/** One recorded state move of a difference, oldest first; {@code actor} is a node or a person. */
public record DifferenceMove(
    long id,
    String fromState,
    String toState,
    long version,
    String actor,
    String detail,
    Instant at) {}
