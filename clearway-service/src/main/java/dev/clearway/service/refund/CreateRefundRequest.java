package dev.clearway.service.refund;

/**
 * The body of {@code POST /v1/payment-flows/{flowId}/refunds}. Boxed on purpose: a missing field is
 * null and gets its own error code.
 *
 * @param amount minor units, at most what was paid minus what is already refunded or in flight
 * @param reason why the merchant refunds (kept with the refund, at most 200 characters)
 */
public record CreateRefundRequest(Long amount, String reason) {}
