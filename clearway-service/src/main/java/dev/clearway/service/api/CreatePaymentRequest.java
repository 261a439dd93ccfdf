package dev.clearway.service.api;

/**
 * The body of {@code POST /v1/payments}. Boxed and textual on purpose: a missing field is null, and
 * the deadline is parsed here so that a bad one gets its own error code.
 */
public record CreatePaymentRequest(
    Long userId, String scene, String bizKey, Long amount, String currency, String bizDeadline) {}
