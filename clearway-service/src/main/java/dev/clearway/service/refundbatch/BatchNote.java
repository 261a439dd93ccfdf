package dev.clearway.service.refundbatch;

/** The body of a rejection: why (at most 500 characters). */
public record BatchNote(String reason) {}
