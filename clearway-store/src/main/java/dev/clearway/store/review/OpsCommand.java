package dev.clearway.store.review;

import dev.clearway.core.review.OpsCommandKind;
import dev.clearway.core.review.TargetKind;
import java.time.Instant;

/**
 * One manual command on a target other than a flow, as stored in manual_command. {@code amount} is
 * the charged amount a mismatch refund or hand-over names (null for every other command).
 */
public record OpsCommand(
    long id,
    TargetKind targetKind,
    long targetId,
    OpsCommandKind kind,
    String expectedStatus,
    long expectedVersion,
    String operatorId,
    String ticket,
    String reason,
    String evidence,
    Long amount,
    String state,
    String approverId,
    String result,
    Instant createdAt,
    Instant decidedAt) {}
