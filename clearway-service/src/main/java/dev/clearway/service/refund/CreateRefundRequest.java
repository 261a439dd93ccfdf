package dev.clearway.service.refund;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;

/**
 * The body of {@code POST /v1/payment-flows/{flowId}/refunds}. Boxed on purpose: a missing field is
 * null and gets its own error code.
 *
 * @param amount minor units, at most what was paid minus what is already refunded or in flight
 * @param reason why the merchant refunds (kept with the refund, at most 200 characters)
 */
public record CreateRefundRequest(
    @Schema(
            requiredMode = RequiredMode.REQUIRED,
            description = "positive, in minor units",
            example = "400")
        Long amount,
    @Schema(requiredMode = RequiredMode.REQUIRED, maxLength = 200, example = "damaged on arrival")
        String reason) {}
