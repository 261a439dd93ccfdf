package dev.clearway.core.latecharge.domain;

import java.time.Instant;

/**
 * One late-charge check as stored (one per flow). While {@code leaseOwner} is set, {@code
 * nextCheckTime} is the lease expiry.
 *
 * @param refundId the LATE_CHARGE refund order, once requested
 */
public record LateChargeCheck(
    long id,
    long flowId,
    String tradeOrderNo,
    SuspicionSource source,
    LateChargeStatus status,
    long version,
    Instant nextCheckTime,
    int retryCount,
    String lastResult,
    String lastErrorCode,
    Long refundId,
    String leaseOwner,
    Instant createdAt,
    Instant updatedAt) {

  public boolean isTerminal() {
    return status.isTerminal();
  }
}
