package dev.clearway.core.channel.spi;

/**
 * How to find one attempt at its PSP: by the idempotency key (which is the merchant reference of
 * the attempt at PSPs such as WeChat Pay, where {@code out_trade_no} is the idempotency domain), by
 * the payment order's merchant reference, or by the provider's own id once known (may be null).
 */
public record AttemptRef(
    String idempotencyKey, String merchantReference, String providerPaymentId) {}
