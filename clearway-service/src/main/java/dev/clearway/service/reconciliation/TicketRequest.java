package dev.clearway.service.reconciliation;

/**
 * The body of a ticket proposal: {@code kind} RESOLVE_REPAIRED_OUTSIDE or ACCEPT_DIFFERENCE, the
 * ticket (at most 64 characters), the reason (500) and the evidence (2000: the PSP's or finance's
 * reference).
 */
public record TicketRequest(String kind, String ticket, String reason, String evidence) {}
