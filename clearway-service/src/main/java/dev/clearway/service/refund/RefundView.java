package dev.clearway.service.refund;

import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Instant;

/**
 * An after-sales refund as clients see it: its identities, the frozen amount, its status (PENDING,
 * PROCESSING, SUCCESS, FAIL, ABNORMAL, CLOSED) and when to poll again (null once final).
 */
public record RefundView(
    long refundId,
    String refundNo,
    long flowId,
    int seq,
    long amount,
    String currency,
    String reason,
    RefundStatus status,
    String lastErrorCode,
    Instant createdAt,
    Instant updatedAt,
    Long pollAfterMs) {

  static final long POLL_AFTER_MS = 2_000;

  public static RefundView of(RefundOrder r) {
    return new RefundView(
        r.id(),
        r.refundNo(),
        r.flowId(),
        r.seq(),
        r.amount(),
        r.currency(),
        r.reason(),
        r.status(),
        r.lastErrorCode(),
        r.createdAt(),
        r.updatedAt(),
        r.isTerminal() ? null : POLL_AFTER_MS);
  }
}
