package dev.clearway.core.refundbatch.port;

import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refundbatch.decision.ItemDecision;
import dev.clearway.core.refundbatch.domain.BatchItem;
import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the batch runner reads and writes. Every write names the runner's lease token and applies
 * only while the batch is RUNNING and still held by it: a paused batch, or one another runner took
 * over after the lease expired, refuses the write (false) and the runner stops.
 */
public interface BatchRunStore {

  /**
   * Takes one runnable batch (APPROVED, or RUNNING with a free or expired lease) whose {@code
   * due_at} has come, oldest due first, skipping rows locked by another claimer: it becomes
   * RUNNING, held by {@code lease} until its expiry.
   */
  Optional<RefundBatch> claimDue(Lease lease, Instant now);

  /** Up to {@code limit} PENDING items of the batch with an id above {@code afterId}, by id. */
  List<BatchItem> pendingItems(long batchId, long afterId, int limit);

  /**
   * In one statement: every PENDING item whose payment has a refund order an item of another batch
   * recorded takes it, as ALREADY_REFUNDED (that batch counts it), or NEEDS_PERSON when that order
   * ended FAIL or CLOSED (the payment's batch key is spent); fenced by the batch lease. Returns how
   * many items it decided: they cost no slot and no call.
   */
  int markPriorBatchRefunds(long batchId, String holder, Instant now);

  /** Writes a PENDING item's outcome, fenced by the batch lease. */
  boolean recordItem(
      long batchId, String holder, long itemId, ItemDecision.Result result, Instant now);

  /** Moves the cursor and extends the lease to {@code leaseUntil}, fenced by the batch lease. */
  boolean checkpoint(
      long batchId, String holder, long cursorItemId, Instant leaseUntil, Instant now);

  /**
   * ORDERED items whose refund order has ended take its result (SUCCESS: REFUNDED; FAIL or CLOSED:
   * FAILED; ABNORMAL: NEEDS_PERSON), fenced by the batch lease. Returns how many moved.
   */
  int settle(long batchId, String holder, Instant now);

  /** The items of the batch counted by outcome. */
  BatchProgress progress(long batchId);

  /** RUNNING to DONE with the final counts and an audit line, fenced by the batch lease. */
  boolean finish(long batchId, String holder, BatchProgress counts, Instant now);

  /** Keeps RUNNING, releases the lease and makes the batch due at {@code dueAt}. */
  boolean release(long batchId, String holder, Instant dueAt, Instant now);
}
