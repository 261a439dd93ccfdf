package dev.clearway.core.modelcheck.memory;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import java.time.Instant;

/** Copies of a {@link PayFlow} with some columns changed, as an UPDATE would leave it. */
final class Rows {
  private final PayFlow r;
  private String trade;
  private String refund;
  private FlowStatus status;
  private long version;
  private Instant next;
  private int retries;
  private String error;
  private ReviewState review;
  private String reason;
  private String lease;
  private Instant updated;
  private Instant cancel;

  private Rows(PayFlow r) {
    this.r = r;
    trade = r.tradeOrderNo();
    refund = r.refundOrderNo();
    status = r.status();
    version = r.version();
    next = r.nextRetryTime();
    retries = r.retryCount();
    error = r.lastErrorCode();
    review = r.reviewState();
    reason = r.reviewReason();
    lease = r.leaseOwner();
    updated = r.updatedAt();
    cancel = r.cancelRequestedAt();
  }

  static Rows with(PayFlow row) {
    return new Rows(row);
  }

  Rows numbers(String tradeOrderNo, String refundOrderNo) {
    trade = tradeOrderNo;
    refund = refundOrderNo;
    return this;
  }

  Rows status(FlowStatus newStatus, long newVersion) {
    status = newStatus;
    version = newVersion;
    return this;
  }

  Rows lease(String owner, Instant until) {
    lease = owner;
    next = until;
    return this;
  }

  Rows leaseOwner(String owner) {
    lease = owner;
    return this;
  }

  Rows retry(int count, Instant nextRetry) {
    retries = count;
    next = nextRetry;
    return this;
  }

  Rows retry(int count, Instant nextRetry, String errorCode) {
    error = errorCode;
    return retry(count, nextRetry);
  }

  Rows review(ReviewState state, String why) {
    review = state;
    reason = why;
    return this;
  }

  Rows updatedAt(Instant at) {
    updated = at;
    return this;
  }

  Rows cancelRequested(Instant at) {
    cancel = at;
    return this;
  }

  PayFlow row() {
    return new PayFlow(
        r.id(),
        r.goal(),
        r.attemptNo(),
        trade,
        refund,
        status,
        version,
        r.amount(),
        r.currency(),
        r.bizDeadline(),
        next,
        retries,
        error,
        review,
        reason,
        lease,
        r.createdAt(),
        updated,
        cancel);
  }
}
