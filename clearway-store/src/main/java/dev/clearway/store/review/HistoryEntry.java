package dev.clearway.store.review;

import java.time.Instant;

/**
 * One row of a flow's transition history, for people reading its timeline; {@code id} orders it.
 */
public record HistoryEntry(
    long id,
    String fromStatus,
    String toStatus,
    long version,
    String trigger,
    String requestId,
    String resultClass,
    String errorCode,
    long elapsedMs,
    Instant at) {}
