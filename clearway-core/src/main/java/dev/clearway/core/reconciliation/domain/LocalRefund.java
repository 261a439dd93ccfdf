package dev.clearway.core.reconciliation.domain;

import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Instant;
import java.util.Objects;

/** One refund order of a flow, as stored. */
public record LocalRefund(
    long id,
    String refundOrderNo,
    RefundStatus status,
    long amountMinor,
    long version,
    Instant updatedAt) {

  public LocalRefund {
    Objects.requireNonNull(refundOrderNo, "refundOrderNo");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
