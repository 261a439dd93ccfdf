package dev.clearway.core.refundbatch.engine;

import java.time.Duration;

/**
 * How the batch runner works.
 *
 * @param qps refund orders per second a batch creates for one account, taken from that account's
 *     {@link dev.clearway.core.channel.port.CallBudget}
 * @param lease how long a runner holds a batch between checkpoints
 * @param pageSize items read per page
 * @param settleInterval how long a batch whose orders are all placed waits before it looks again at
 *     those that have not ended
 * @param overloadBackoff how long a batch waits when the refund engine has no thread free
 */
public record BatchRunSettings(
    int qps, Duration lease, int pageSize, Duration settleInterval, Duration overloadBackoff) {

  public BatchRunSettings {
    if (qps <= 0 || pageSize <= 0) {
      throw new IllegalArgumentException("qps and pageSize are positive");
    }
    if (lease.compareTo(Duration.ofMillis(100)) < 0) {
      throw new IllegalArgumentException("a lease is at least 100 ms");
    }
  }

  public static BatchRunSettings defaults(int qps) {
    return new BatchRunSettings(
        qps, Duration.ofSeconds(30), 200, Duration.ofSeconds(5), Duration.ofSeconds(1));
  }
}
