package dev.clearway.core.reconciliation.domain;

import java.time.Instant;

/**
 * One audited act on a ticket command (PROPOSE, APPROVE, REJECT, FAIL); {@code id} orders the
 * trail. The detail names the kind and the ticket, never the evidence.
 */
public record TicketAudit(
    long id,
    long commandId,
    long differenceId,
    String actorId,
    String role,
    String action,
    String detail,
    Instant at) {}
