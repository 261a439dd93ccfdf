package dev.clearway.core.domain;

import java.time.Instant;

/** One row of pay_flow as read from the primary. Immutable; decisions take it as input. */
public record PayFlow(
    long id,
    GoalKey goal,
    int attemptNo,
    String tradeOrderNo,
    String refundOrderNo,
    FlowStatus status,
    long version,
    long amount,
    String currency,
    Instant bizDeadline,
    Instant nextRetryTime,
    int retryCount,
    String lastErrorCode,
    ReviewState reviewState,
    String reviewReason,
    String leaseOwner,
    Instant createdAt,
    Instant updatedAt,
    Instant cancelRequestedAt) {

  /** A row without a cancel request (fixtures and older callers). */
  public PayFlow(
      long id,
      GoalKey goal,
      int attemptNo,
      String tradeOrderNo,
      String refundOrderNo,
      FlowStatus status,
      long version,
      long amount,
      String currency,
      Instant bizDeadline,
      Instant nextRetryTime,
      int retryCount,
      String lastErrorCode,
      ReviewState reviewState,
      String reviewReason,
      String leaseOwner,
      Instant createdAt,
      Instant updatedAt) {
    this(
        id,
        goal,
        attemptNo,
        tradeOrderNo,
        refundOrderNo,
        status,
        version,
        amount,
        currency,
        bizDeadline,
        nextRetryTime,
        retryCount,
        lastErrorCode,
        reviewState,
        reviewReason,
        leaseOwner,
        createdAt,
        updatedAt,
        null);
  }

  /** The goal's owner asked to cancel while no charge was known: it must never be fulfilled. */
  public boolean isCancelRequested() {
    return cancelRequestedAt != null;
  }

  public boolean isTerminal() {
    return status.isTerminal();
  }

  public boolean hasOrderNumbers() {
    return tradeOrderNo != null && refundOrderNo != null;
  }

  public boolean isFrozen() {
    return reviewState == ReviewState.FROZEN;
  }
}
