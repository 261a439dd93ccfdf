package dev.clearway.core.channel.policy;

import java.time.Instant;
import java.util.Objects;

/**
 * One attempt from recorded history, reduced to what a dry run needs (no amounts, no customer
 * data).
 *
 * @param createdAt when the attempt's outcome became unknown (recovery starts here)
 * @param resolvedAt when its outcome became known, or null if it is still unresolved
 * @param recoveryCalls the recovery calls actually made for it under the policy of the time
 */
public record RecordedAttempt(
    long attemptId,
    String channel,
    String paymentMethod,
    Operation operation,
    Instant createdAt,
    Instant resolvedAt,
    int recoveryCalls) {

  public RecordedAttempt {
    Objects.requireNonNull(channel, "channel");
    Objects.requireNonNull(paymentMethod, "paymentMethod");
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
