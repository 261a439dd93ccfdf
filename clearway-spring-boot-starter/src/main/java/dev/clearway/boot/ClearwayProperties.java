package dev.clearway.boot;

import dev.clearway.core.runtime.QueueLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code clearway.*} settings of an embedded engine.
 *
 * @param instanceId prefix of this process's lease tokens (defaults to a random id)
 * @param workers advancing worker threads
 * @param timing {@code production} (seconds to minutes) or {@code compressed} (milliseconds; tests
 *     and demos)
 * @param migrate whether to apply Clearway's migrations at start (own history table)
 * @param workerQueue advances that may wait for a worker (default 4 per worker); beyond it a
 *     wake-up is dropped and counted and the scanner hands over in its own thread
 * @param wakeupCapacity delayed wake-ups held in memory, one per flow (default 50,000); beyond it a
 *     wake-up is dropped and counted, and the scanner finds the flow
 */
@ConfigurationProperties(prefix = "clearway")
public record ClearwayProperties(
    String instanceId,
    Integer workers,
    String timing,
    Boolean migrate,
    Integer workerQueue,
    Integer wakeupCapacity) {

  public String instanceIdOrRandom() {
    return instanceId != null && !instanceId.isBlank()
        ? instanceId
        : "cw-" + Long.toString(System.nanoTime() & 0xffffffL, 36);
  }

  public int workersOrDefault() {
    return workers == null ? 8 : workers;
  }

  /** The flow engine's queues. */
  public QueueLimits queueLimits() {
    return queueLimits(workersOrDefault());
  }

  /** Queues for an engine of {@code workerCount} workers (the refund engine has its own count). */
  public QueueLimits queueLimits(int workerCount) {
    return new QueueLimits(
        workerQueue == null ? workerCount * 4 : workerQueue,
        wakeupCapacity == null ? QueueLimits.DEFAULT_WAKEUPS : wakeupCapacity);
  }

  public boolean compressed() {
    return "compressed".equalsIgnoreCase(timing);
  }

  public boolean migrateOrDefault() {
    return migrate == null || migrate;
  }
}
