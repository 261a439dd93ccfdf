package dev.clearway.core.latecharge.port;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.lease.LeasedRows;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Persistence of late-charge checks, one per flow. Every read is from the primary. Every state
 * write is a compare-and-set on (id, status, version) fenced by the writer's lease ({@code
 * lease_owner} = the writer's token): 0 rows means the row moved or the lease was taken over, and
 * nothing changed.
 */
public interface LateChargeStore extends LeasedRows<LateChargeCheck> {

  /**
   * Records a suspicion: inserts a PENDING check due at {@code now} for a flow that ended without
   * payment (PAY_FAIL or CLOSED), unless the flow already has one. Empty when the flow did not end
   * unpaid (nothing written).
   */
  Optional<Suspected> suspect(long flowId, SuspicionSource source, Instant now);

  @Override
  Optional<LateChargeCheck> find(long checkId);

  Optional<LateChargeCheck> findByFlow(long flowId);

  /** Takes the lease of one non-terminal check whose lease is free or expired. */
  @Override
  boolean claim(long checkId, Lease lease, Instant now);

  /**
   * Claims up to {@code limit} due non-terminal checks with id greater than {@code afterId}, in id
   * order (FOR UPDATE SKIP LOCKED), and returns their ids ascending.
   */
  List<Long> claimDue(long afterId, int limit, Lease lease, Instant now);

  /** CAS transition fenced by the writer's lease. The row as written, or empty (0 rows). */
  Optional<LateChargeCheck> transition(TransitionWrite write);

  /**
   * Keeps the status, counts a retry, sets the next check time and releases the lease; CAS fenced
   * by the writer's lease. False when 0 rows were updated.
   */
  boolean reschedule(RescheduleWrite write);

  /** The flow's check and whether this call inserted it. */
  record Suspected(LateChargeCheck check, boolean created) {}

  /**
   * @param writerToken the lease the writer holds; the row must still carry it
   * @param nextLeaseOwner who holds the row afterwards (null releases it)
   * @param refundId the LATE_CHARGE refund order, set once (null keeps the column)
   */
  record TransitionWrite(
      LateChargeCheck from,
      LateChargeStatus to,
      String writerToken,
      String resultClass,
      String errorCode,
      Long refundId,
      Instant nextCheckTime,
      String nextLeaseOwner,
      Instant now) {}

  record RescheduleWrite(
      LateChargeCheck from,
      String writerToken,
      String resultClass,
      String errorCode,
      Instant nextCheckTime,
      Instant now) {}
}
