package dev.clearway.core.refundbatch.port;

import dev.clearway.core.refundbatch.domain.ItemOutcome;

/** What the batch runner reports (metrics). */
public interface BatchEvents {
  BatchEvents NONE = new BatchEvents() {};

  default void itemDecided(ItemOutcome outcome) {}

  default void leaseLost(long batchId) {}

  default void finished(long batchId) {}
}
