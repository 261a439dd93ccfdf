package dev.clearway.store.review;

import java.time.Instant;

/** One row of a flow's transition history, for people reading its timeline. */
public record HistoryEntry(
    String fromStatus,
    String toStatus,
    long version,
    String trigger,
    String requestId,
    String resultClass,
    String errorCode,
    long elapsedMs,
    Instant at) {}
