package dev.clearway.core.testing;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import java.time.Instant;

/** Builds {@link PayFlow} rows for the pure decision tests; no database involved. */
public final class Flows {
  public static final long FLOW_ID = 901L;
  public static final GoalKey GOAL =
      GoalKey.ofDefaultMerchant(16L, "renew", "R:16:73:2024-05-01:3");
  public static final OrderNumbers NUMBERS = OrderNumbers.derive(GOAL.userId(), FLOW_ID);
  public static final Instant DEADLINE = Instant.parse("2030-01-01T00:00:00Z");

  private Flows() {}

  /** A flow of attempt 1 with derived order numbers and the fixed {@link #DEADLINE}. */
  public static PayFlow flow(FlowStatus status) {
    return flow(status, DEADLINE);
  }

  /** A flow of attempt 1 whose goal's owner asked to cancel it a minute after its creation. */
  public static PayFlow cancelRequested(FlowStatus status) {
    PayFlow f = flow(status);
    return new PayFlow(
        f.id(),
        f.goal(),
        f.attemptNo(),
        f.tradeOrderNo(),
        f.refundOrderNo(),
        f.status(),
        f.version(),
        f.amount(),
        f.currency(),
        f.bizDeadline(),
        f.nextRetryTime(),
        f.retryCount(),
        f.lastErrorCode(),
        f.reviewState(),
        f.reviewReason(),
        f.leaseOwner(),
        f.createdAt(),
        f.updatedAt(),
        f.createdAt().plusSeconds(60));
  }

  public static PayFlow flow(FlowStatus status, Instant deadline) {
    Instant created = deadline.minusSeconds(3_600);
    return new PayFlow(
        FLOW_ID,
        GOAL,
        1,
        NUMBERS.tradeOrderNo(),
        NUMBERS.refundOrderNo(),
        status,
        3L,
        1_999L,
        "CNY",
        deadline,
        created,
        0,
        null,
        ReviewState.NONE,
        null,
        null,
        created,
        created);
  }
}
