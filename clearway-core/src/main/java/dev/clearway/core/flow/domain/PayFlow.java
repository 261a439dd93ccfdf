package dev.clearway.core.flow.domain;

import java.time.Instant;

/**
 * One row of pay_flow as read from the primary. Immutable; decisions take it as input. Production
 * code builds one through {@link #builder()}, which names every column.
 */
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

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Names every column of a row; unset columns are null, zero, or {@link ReviewState#NONE} for the
   * review state.
   */
  public static final class Builder {
    private long id;
    private GoalKey goal;
    private int attemptNo;
    private String tradeOrderNo;
    private String refundOrderNo;
    private FlowStatus status;
    private long version;
    private long amount;
    private String currency;
    private Instant bizDeadline;
    private Instant nextRetryTime;
    private int retryCount;
    private String lastErrorCode;
    private ReviewState reviewState = ReviewState.NONE;
    private String reviewReason;
    private String leaseOwner;
    private Instant createdAt;
    private Instant updatedAt;
    private Instant cancelRequestedAt;

    private Builder() {}

    public Builder id(long id) {
      this.id = id;
      return this;
    }

    public Builder goal(GoalKey goal) {
      this.goal = goal;
      return this;
    }

    public Builder attemptNo(int attemptNo) {
      this.attemptNo = attemptNo;
      return this;
    }

    /** The trade and refund order numbers (null until derived from the id). */
    public Builder orderNumbers(String tradeOrderNo, String refundOrderNo) {
      this.tradeOrderNo = tradeOrderNo;
      this.refundOrderNo = refundOrderNo;
      return this;
    }

    public Builder status(FlowStatus status) {
      this.status = status;
      return this;
    }

    public Builder version(long version) {
      this.version = version;
      return this;
    }

    /** The amount in minor units and its ISO 4217 currency. */
    public Builder money(long amount, String currency) {
      this.amount = amount;
      this.currency = currency;
      return this;
    }

    public Builder bizDeadline(Instant bizDeadline) {
      this.bizDeadline = bizDeadline;
      return this;
    }

    public Builder nextRetryTime(Instant nextRetryTime) {
      this.nextRetryTime = nextRetryTime;
      return this;
    }

    public Builder retryCount(int retryCount) {
      this.retryCount = retryCount;
      return this;
    }

    public Builder lastErrorCode(String lastErrorCode) {
      this.lastErrorCode = lastErrorCode;
      return this;
    }

    /** The manual-review state and its reason (null reason: none). */
    public Builder review(ReviewState reviewState, String reviewReason) {
      this.reviewState = reviewState;
      this.reviewReason = reviewReason;
      return this;
    }

    public Builder leaseOwner(String leaseOwner) {
      this.leaseOwner = leaseOwner;
      return this;
    }

    public Builder createdAt(Instant createdAt) {
      this.createdAt = createdAt;
      return this;
    }

    public Builder updatedAt(Instant updatedAt) {
      this.updatedAt = updatedAt;
      return this;
    }

    public Builder cancelRequestedAt(Instant cancelRequestedAt) {
      this.cancelRequestedAt = cancelRequestedAt;
      return this;
    }

    public PayFlow build() {
      return new PayFlow(
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
          cancelRequestedAt);
    }
  }
}
