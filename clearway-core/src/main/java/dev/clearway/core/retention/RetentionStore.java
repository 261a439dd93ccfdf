package dev.clearway.core.retention;

import java.time.Instant;

/** The store side of retention: one batch at a time, each its own short transaction. */
public interface RetentionStore {

  /**
   * Removes (or, for {@link RetentionKind#FLOW_ARCHIVE}, moves to the archive) at most {@code
   * limit} rows of the kind older than {@code cutoff}, oldest first; rows locked by someone else
   * are skipped, never waited for. Returns the number of rows removed from the hot table (flows
   * only, not their history rows).
   */
  int removeBatch(RetentionKind kind, Instant cutoff, int limit);
}
