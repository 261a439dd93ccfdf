package dev.clearway.service.api;

import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.media.Schema.RequiredMode;

/**
 * The body of {@code POST /v1/payments}. Boxed and textual on purpose: a missing field is null, and
 * the deadline is parsed here so that a bad one gets its own error code.
 *
 * @param paymentMethod {@code wallet}, {@code card}, {@code wechat_native} or {@code wechat_jsapi};
 *     null: the service's default method
 * @param paymentToken an opaque PSP token of the method, such as {@code pm_card_visa}; never card
 *     data (optional)
 * @param payer the payer's id at the PSP, required by {@code wechat_jsapi} (the openid)
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
        String bizDeadline,
    @Schema(
            description =
                "wallet, card, wechat_native or wechat_jsapi, as the merchant's channels allow;"
                    + " absent: the service's default method",
            example = "wechat_native")
        String paymentMethod,
    @Schema(
            description = "an opaque PSP token of the method; never card data",
            example = "pm_card_visa")
        String paymentToken,
    @Schema(description = "the payer's id at the PSP, required by wechat_jsapi (the openid)")
        String payer) {

  /** A request that leaves the method to the service's default. */
  public CreatePaymentRequest(
      Long userId, String scene, String bizKey, Long amount, String currency, String bizDeadline) {
    this(userId, scene, bizKey, amount, currency, bizDeadline, null, null, null);
  }
}
