package dev.clearway.store.review;

import java.time.Instant;

/** One audited act on a manual command. */
public record AuditEntry(
    long commandId,
    long flowId,
    String actorId,
    String role,
    String action,
    String detail,
    Instant at) {}
