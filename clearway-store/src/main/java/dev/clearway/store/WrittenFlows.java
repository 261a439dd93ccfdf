package dev.clearway.store;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The flow row a write leaves, built from what the write bound instead of read back, on the MySQL
 * family (which has no {@code RETURNING} on UPDATE). A row is built only where every column is
 * known: the values the statement wrote, and the columns it kept, which are either frozen by the
 * tables' triggers (identity, amount, deadline, creation time, order numbers once written) or
 * fenced by the statement's WHERE (the prior row's review and cancel columns). Instants are bound
 * at the columns' precision (DATETIME(6)), so the built row holds what the database stored.
 */
final class WrittenFlows {
  private WrittenFlows() {}

  /** An instant as a DATETIME(6) column stores it: whole microseconds. */
  static Instant stored(Instant t) {
    return t == null ? null : t.truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * Whether the row a transition from {@code from} writes is fully known: its order numbers are
   * written (frozen from then on) and its instants are at the columns' precision (it was read from
   * the database or built here).
   */
  static boolean knowable(PayFlow from) {
    return from.tradeOrderNo() != null
        && from.refundOrderNo() != null
        && from.createdAt() != null
        && from.bizDeadline() != null
        && stored(from.createdAt()).equals(from.createdAt())
        && stored(from.bizDeadline()).equals(from.bizDeadline())
        && (from.cancelRequestedAt() == null
            || stored(from.cancelRequestedAt()).equals(from.cancelRequestedAt()));
  }

  /**
   * The row after the transition's CAS matched {@code w.from()} on id, status, version, review
   * state and reason, and cancel request: the SET of the transition applied to it.
   */
  static PayFlow afterTransition(TransitionWrite w) {
    PayFlow from = w.from();
    boolean escalated = from.reviewState() == ReviewState.ESCALATED;
    return PayFlow.builder()
        .id(from.id())
        .goal(from.goal())
        .attemptNo(from.attemptNo())
        .orderNumbers(from.tradeOrderNo(), from.refundOrderNo())
        .status(w.to())
        .version(from.version() + 1)
        .money(from.amount(), from.currency())
        .bizDeadline(from.bizDeadline())
        .nextRetryTime(stored(w.nextRetryTime()))
        .retryCount(0)
        .lastErrorCode(w.errorCode())
        .review(
            escalated ? ReviewState.NONE : from.reviewState(),
            escalated ? null : from.reviewReason())
        .leaseOwner(w.leaseToken())
        .createdAt(from.createdAt())
        .updatedAt(stored(w.now()))
        .cancelRequestedAt(from.cancelRequestedAt())
        .build();
  }

  /**
   * The row a creation inserted: the facts as bound, the state as bound, and the state's defaults
   * (no retry, no error, no review, no cancel request).
   */
  static PayFlow created(
      long id,
      NewPayment payment,
      int attemptNo,
      OrderNumbers numbers,
      FlowStatus status,
      long version,
      Lease lease,
      Instant now) {
    return PayFlow.builder()
        .id(id)
        .goal(payment.goal())
        .attemptNo(attemptNo)
        .orderNumbers(numbers.tradeOrderNo(), numbers.refundOrderNo())
        .status(status)
        .version(version)
        .money(payment.amount(), payment.currency())
        .bizDeadline(stored(payment.bizDeadline()))
        .nextRetryTime(stored(lease.until()))
        .retryCount(0)
        .review(ReviewState.NONE, null)
        .leaseOwner(lease.token())
        .createdAt(stored(now))
        .updatedAt(stored(now))
        .build();
  }
}
