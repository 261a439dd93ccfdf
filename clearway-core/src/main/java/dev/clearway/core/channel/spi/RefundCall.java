package dev.clearway.core.channel.spi;

/**
 * One refund of a charged attempt at its own PSP and channel account. {@code refundNo} is the
 * idempotency domain of the refund (WeChat {@code out_refund_no}, Stripe {@code Idempotency-Key}):
 * the same number refunds at most once.
 */
public record RefundCall(
    String refundNo, AttemptRef attempt, long amount, long chargedAmount, String currency) {}
