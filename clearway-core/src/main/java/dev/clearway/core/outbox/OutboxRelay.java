package dev.clearway.core.outbox;

import dev.clearway.core.flow.port.WorkerFailures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Delivers outbox events at least once: lease a batch, publish each, mark it published. A crash
 * between publishing and marking publishes again after the lease expires; consumers deduplicate by
 * event id. An event whose publishing fails stays pending and is retried on a later pass.
 */
public final class OutboxRelay {
  private final OutboxStore store;
  private final EventPublisher publisher;
  private final Clock clock;
  private final Duration lease;
  private final int batch;
  private final WorkerFailures failures;

  public OutboxRelay(
      OutboxStore store, EventPublisher publisher, Clock clock, Duration lease, int batch) {
    this(store, publisher, clock, lease, batch, WorkerFailures.systemLogger());
  }

  /**
   * @param failures told of every event whose publishing failed (loop {@code outbox-publish})
   */
  public OutboxRelay(
      OutboxStore store,
      EventPublisher publisher,
      Clock clock,
      Duration lease,
      int batch,
      WorkerFailures failures) {
    this.store = store;
    this.publisher = publisher;
    this.clock = clock;
    this.lease = lease;
    this.batch = batch;
    this.failures = failures;
  }

  /** One pass; returns how many events were published. */
  public int runOnce() {
    Instant now = clock.instant();
    int published = 0;
    for (OutboxEvent event : store.lease(batch, now, now.plus(lease))) {
      try {
        publisher.publish(event);
      } catch (Exception e) {
        // Stays pending; its lease expires and a later pass tries again.
        failures.failed("outbox-publish", e);
        continue;
      }
      if (store.markPublished(event.id(), clock.instant())) {
        published++;
      }
    }
    return published;
  }
}
