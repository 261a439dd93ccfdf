package dev.clearway.service.reconciliation;

/** The body of a rejection: why (at most 500 characters). */
public record TicketRejection(String reason) {}
