package dev.clearway.core.reconciliation.domain;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import java.time.Instant;
import java.util.Objects;

/**
 * One local view of a payment: the flow, the attempt it was sent as (null when the flow was paid
 * without the channel layer), and one of its refund orders (null when none is looked at).
 *
 * @param flowRefundOrderNo the flow's own compensation refund number ({@code r_{trade}})
 * @param channelAccount the account the attempt was sent to
 * @param compensation whether a refund of a charge that must not stand is already under way
 */
public record LocalFact(
    long flowId,
    GoalKey goal,
    String tradeOrderNo,
    String flowRefundOrderNo,
    FlowStatus flowStatus,
    long flowVersion,
    LocalAttempt attempt,
    LocalRefund refund,
    long amountMinor,
    String currency,
    String channelAccount,
    Instant createdAt,
    Instant updatedAt,
    CompensationState compensation) {

  public LocalFact {
    Objects.requireNonNull(goal, "goal");
    Objects.requireNonNull(tradeOrderNo, "tradeOrderNo");
    Objects.requireNonNull(flowStatus, "flowStatus");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(compensation, "compensation");
  }

  public long userId() {
    return goal.userId();
  }

  public String attemptKey() {
    return attempt == null ? null : attempt.attemptKey();
  }

  /** True when the local side holds that the payer was charged. */
  public boolean locallyCharged() {
    return switch (flowStatus) {
      case PAYED, BIZ_SUCCESS, REFUNDING, REFUNDED -> true;
      case WAIT_PAY, PAYING, PAY_FAIL, CLOSED ->
          attempt != null && attempt.status() == AttemptStatus.SUCCEEDED;
    };
  }

  /** True when the local side holds that money went back under {@code refundOrderNo}. */
  public boolean locallyRefunded() {
    return refund != null
        ? refund.status() == dev.clearway.core.refund.domain.RefundStatus.SUCCESS
        : flowStatus == FlowStatus.REFUNDED;
  }

  /** The refund number this view answers for: its refund order's, else the flow's own. */
  public String refundOrderNo() {
    return refund != null ? refund.refundOrderNo() : flowRefundOrderNo;
  }

  public LocalFact withFlowStatus(FlowStatus status) {
    return new LocalFact(
        flowId,
        goal,
        tradeOrderNo,
        flowRefundOrderNo,
        status,
        flowVersion,
        attempt,
        refund,
        amountMinor,
        currency,
        channelAccount,
        createdAt,
        updatedAt,
        compensation);
  }
}
