package dev.clearway.core.refund.domain;

import java.time.Instant;

/**
 * One row of refund_order as read from the primary. Immutable; decisions take it as input. It
 * belongs to {@code merchantId}, the merchant of its payment.
 */
public record RefundOrder(
    long id,
    long flowId,
    String merchantId,
    int seq,
    String tradeOrderNo,
    String refundNo,
    long amount,
    String currency,
    String reason,
    String requestedBy,
    RefundStatus status,
    long version,
    Instant nextRetryTime,
    int retryCount,
    String lastErrorCode,
    String leaseOwner,
    Instant createdAt,
    Instant updatedAt) {

  public boolean isTerminal() {
    return status.isTerminal();
  }
}
