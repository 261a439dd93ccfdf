package dev.clearway.core.outbox;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The outbox's pending events, leased to one relay at a time. */
public interface OutboxStore {

  /**
   * Leases up to {@code limit} unpublished events whose lease is free or expired, oldest first (FOR
   * UPDATE SKIP LOCKED: two relays never take the same event at once).
   */
  List<OutboxEvent> lease(int limit, Instant now, Instant leaseUntil);

  /** Marks an event published; false if it already was (another relay after a lease expiry). */
  boolean markPublished(long id, Instant now);

  /** Events not yet published (the relay's backlog). */
  long pending();

  /** When the oldest event not yet published was written; empty when none is pending. */
  Optional<Instant> oldestPending();
}
