package dev.clearway.core.channel.domain;

import java.time.Instant;

/**
 * The recovery task of one attempt: one per attempt (a unique key), claimed with a lease. {@code
 * policyVersion} is pinned when the task is created.
 */
public record RecoveryTask(
    long id,
    long attemptId,
    long channelAccountId,
    TaskStatus status,
    String strategy,
    Instant dueAt,
    int attemptCount,
    String leaseOwner,
    Instant leaseUntil,
    String policyVersion,
    long version) {

  public enum TaskStatus {
    READY,
    LEASED,
    RESOLVED,
    MANUAL
  }
}
