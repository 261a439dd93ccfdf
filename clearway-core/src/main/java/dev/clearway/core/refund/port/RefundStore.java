package dev.clearway.core.refund.port;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.lease.LeasedRows;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Persistence of after-sales refunds. Every read is from the primary. Every state write is a
 * compare-and-set on (id, status, version), fenced by the writer's lease ({@code lease_owner =
 * holder}: a worker whose lease expired and was taken over changes nothing), and reports 0 rows as
 * "someone else moved it, or the lease is lost".
 */
public interface RefundStore extends LeasedRows<RefundOrder> {

  /**
   * In one transaction: returns the refund already bound to (requester, idempotency key) if any;
   * else locks the flow row, refuses unless it is BIZ_SUCCESS and the amount fits in what is paid
   * minus the refunds that hold an amount ({@link RefundStatus#holdsAmount()}); else inserts a
   * PENDING refund with the next seq of the flow, held by {@code lease}, and its history row.
   */
  CreateOutcome create(NewRefund request, Lease lease, Instant now);

  @Override
  Optional<RefundOrder> find(long refundId);

  /** At most {@code limit} refunds of one flow with a seq above {@code afterSeq}, by seq. */
  List<RefundOrder> findByFlow(long flowId, int afterSeq, int limit);

  /** Takes the lease of one non-terminal refund whose lease is free or expired. */
  @Override
  boolean claim(long refundId, Lease lease, Instant now);

  /**
   * Claims up to {@code limit} due non-terminal refunds with id greater than {@code afterId}, in id
   * order (FOR UPDATE SKIP LOCKED), and returns their ids ascending.
   */
  List<Long> claimDue(long afterId, int limit, Lease lease, Instant now);

  /**
   * CAS transition and its history row in one statement, fenced by {@link
   * TransitionWrite#holder()}. Returns the row as written, or empty when 0 rows were updated.
   */
  Optional<RefundOrder> transition(TransitionWrite write);

  /**
   * Keeps the status, sets the next retry time and releases the lease; CAS on status, version and
   * {@code lease_owner = holder}. False when 0 rows were updated.
   */
  boolean reschedule(RescheduleWrite write);

  /** What a create request found or did. */
  sealed interface CreateOutcome {
    /** Inserted by this call, PENDING and held by the caller's lease. */
    record Created(RefundOrder refund) implements CreateOutcome {}

    /** The key was already used with the same parameters: this is its refund. */
    record Replayed(RefundOrder refund) implements CreateOutcome {}

    /** The key was already used with other parameters. Nothing written. */
    record KeyReused() implements CreateOutcome {}

    /** No such flow. Nothing written. */
    record FlowNotFound() implements CreateOutcome {}

    /** The flow is not BIZ_SUCCESS. Nothing written. */
    record NotAllowed(FlowStatus status) implements CreateOutcome {}

    /** {@code paid - held} is less than the amount asked for. Nothing written. */
    record ExceedsPayment(long paid, long held) implements CreateOutcome {
      public long available() {
        return paid - held;
      }
    }
  }

  /**
   * One CAS transition by the worker holding the lease {@code holder}.
   *
   * @param leaseToken the refund's {@code lease_owner} after the write: the writer's token to keep
   *     holding it, or null to release it
   * @param holder the token of the lease the writer holds; the write applies only while the row's
   *     {@code lease_owner} is still this token
   */
  record TransitionWrite(
      RefundOrder from,
      RefundStatus to,
      String errorCode,
      Instant nextRetryTime,
      String leaseToken,
      HistoryNote note,
      Instant now,
      String holder) {

    public TransitionWrite {
      java.util.Objects.requireNonNull(holder, "a refund moves under the writer's lease");
    }
  }

  /** One reschedule by the worker holding the lease {@code holder}; it releases that lease. */
  record RescheduleWrite(
      RefundOrder from,
      int retryCount,
      Instant nextRetryTime,
      String errorCode,
      Instant now,
      String holder) {

    public RescheduleWrite {
      java.util.Objects.requireNonNull(holder, "a refund is rescheduled under the writer's lease");
    }
  }
}
