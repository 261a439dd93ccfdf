package dev.clearway.core.lease;

import dev.clearway.core.flow.port.FlowStore.Lease;
import java.time.Instant;
import java.util.Optional;

/**
 * The store side of a leased table: take the lease of one row, and read a row from the primary.
 * Reschedules and transitions are the table's own writes, each fenced by the writer's lease.
 */
public interface LeasedRows<R> {

  /**
   * Takes the lease of one open row whose lease is free or expired at {@code now}; false when
   * another worker holds it or the row is not open.
   */
  boolean claim(long id, Lease lease, Instant now);

  Optional<R> find(long id);
}
