package dev.clearway.store.review;

import java.time.Instant;

/** One audited act on a manual command; {@code id} orders the trail. */
public record AuditEntry(
    long id,
    long commandId,
    long flowId,
    String actorId,
    String role,
    String action,
    String detail,
    Instant at) {}
