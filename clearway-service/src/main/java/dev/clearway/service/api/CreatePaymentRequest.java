package dev.clearway.service.api;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;

/**
 * The body of {@code POST /v1/payments}. Boxed and textual on purpose: a missing field is null, and
 * the deadline is parsed here so that a bad one gets its own error code.
 */
public record CreatePaymentRequest(
    @Schema(requiredMode = RequiredMode.REQUIRED, description = "positive", example = "42")
        Long userId,
    @Schema(requiredMode = RequiredMode.REQUIRED, maxLength = 32, example = "renewal") String scene,
    @Schema(
            requiredMode = RequiredMode.REQUIRED,
            maxLength = 160,
            description = "the business order this payment pays",
            example = "order-4711")
        String bizKey,
    @Schema(
            requiredMode = RequiredMode.REQUIRED,
            description = "positive, in minor units, at most the configured maximum",
            example = "990")
        Long amount,
    @Schema(requiredMode = RequiredMode.REQUIRED, description = "ISO 4217 code", example = "CNY")
        String currency,
    @Schema(
            requiredMode = RequiredMode.REQUIRED,
            description = "ISO-8601 instant, in the future and at most 400 days ahead",
            example = "2026-12-01T10:00:00Z")
        String bizDeadline) {}
