package dev.clearway.service.node;

/**
 * The body of {@code POST /ops/intake}.
 *
 * @param open true to accept new payments, false to refuse them on every node
 * @param reason why (required when closing, at most 500 characters)
 */
public record IntakeRequest(Boolean open, String reason) {}
