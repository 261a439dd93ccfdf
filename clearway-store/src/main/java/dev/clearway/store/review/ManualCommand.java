package dev.clearway.store.review;

import dev.clearway.core.review.CommandKind;
import java.time.Instant;

/** One manual command as stored. */
public record ManualCommand(
    long id,
    long flowId,
    CommandKind kind,
    String expectedStatus,
    long expectedVersion,
    String operatorId,
    String ticket,
    String reason,
    String evidence,
    String state,
    String approverId,
    String result,
    Instant createdAt,
    Instant decidedAt) {}
