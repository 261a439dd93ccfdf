package dev.clearway.core.refundbatch.domain;

import java.time.Instant;

/**
 * One batch as stored: its scope, maker/checker, the runner's lease and cursor, and the counts
 * written when it ended (while it runs, {@link BatchProgress} counts its items).
 */
public record RefundBatch(
    long id,
    BatchScope scope,
    BatchState state,
    long version,
    String proposer,
    String approver,
    String ticket,
    String reason,
    String decisionNote,
    String leaseOwner,
    Instant dueAt,
    long cursorItemId,
    int totalItems,
    Instant createdAt,
    Instant decidedAt,
    Instant finishedAt,
    Instant updatedAt) {}
