package dev.clearway.core.refundbatch.engine;

import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refundbatch.decision.ItemDecision;
import dev.clearway.core.refundbatch.domain.BatchItem;
import dev.clearway.core.refundbatch.domain.BatchProgress;
import dev.clearway.core.refundbatch.domain.BatchRefundKey;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.BatchEvents;
import dev.clearway.core.refundbatch.port.BatchRefundEntry;
import dev.clearway.core.refundbatch.port.BatchRunStore;
import dev.clearway.core.runtime.Overloaded;
import dev.clearway.core.runtime.TokenMint;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Carries out approved refund batches. {@link #runOnce} claims one due batch with a lease and works
 * through its PENDING items by id from the batch's cursor: for each, a slot of the item's account
 * in the {@link CallBudget} (never one that starts after the lease), then the refund engine's own
 * entry under the payment's batch key ({@link BatchRefundKey}), then the item's outcome written
 * under the batch lease. Before that, the payments whose refund order an earlier batch recorded are
 * decided in one statement, without a slot or a call ({@link BatchRunStore#markPriorBatchRefunds}).
 * The lease is extended (with the cursor) whenever half of it is spent. A refused write means the
 * batch was paused or taken over: the runner stops at once. When no item is PENDING, the ORDERED
 * ones take their refund order's result; the batch is DONE when every item is final, else it is
 * released and looked at again after {@code settleInterval}.
 *
 * <p>A runner that dies leaves the lease to expire; the next claim continues from the database. An
 * item whose order was created but whose outcome was not written is asked again: the refund engine
 * answers with the same order (a replay), so nothing is created twice.
 */
public final class BatchRunner {
  private final BatchRunStore store;
  private final BatchRefundEntry entry;
  private final CallBudget budget;
  private final TokenMint tokens;
  private final BatchRunSettings settings;
  private final BatchEvents events;
  private final Clock clock;

  public BatchRunner(
      BatchRunStore store,
      BatchRefundEntry entry,
      CallBudget budget,
      TokenMint tokens,
      BatchRunSettings settings,
      BatchEvents events,
      Clock clock) {
    this.store = store;
    this.entry = entry;
    this.budget = budget;
    this.tokens = tokens;
    this.settings = settings;
    this.events = events;
    this.clock = clock;
  }

  /** How one claimed run ended. */
  public enum RunEnd {
    NONE_DUE,
    DONE,
    WAITING_FOR_ORDERS,
    LEASE_LOST,
    OVERLOADED,
    PACED
  }

  /** Claims one due batch and runs it until it ends, waits, or is taken away. */
  public RunEnd runOnce() {
    Instant now = clock.instant();
    Lease lease = new Lease(tokens.next(), now.plus(settings.lease()));
    Optional<RefundBatch> claimed = store.claimDue(lease, now);
    if (claimed.isEmpty()) {
      return RunEnd.NONE_DUE;
    }
    return run(claimed.get(), new Held(lease.token(), lease.until(), claimed.get().cursorItemId()));
  }

  /** The runner's hold on one batch: its token, the lease end and the last item written. */
  private static final class Held {
    final String token;
    Instant until;
    long cursor;

    Held(String token, Instant until, long cursor) {
      this.token = token;
      this.until = until;
      this.cursor = cursor;
    }
  }

  private RunEnd run(RefundBatch batch, Held held) {
    String merchant = batch.scope().merchant();
    store.markPriorBatchRefunds(batch.id(), held.token, now());
    List<BatchItem> page;
    while (!(page = store.pendingItems(batch.id(), held.cursor, settings.pageSize())).isEmpty()) {
      for (BatchItem item : page) {
        RunEnd stopped = refundOne(batch.id(), merchant, item, held);
        if (stopped != null) {
          return stopped;
        }
      }
    }
    return settleOrWait(batch.id(), held);
  }

  /** One item: a paced slot, the refund engine's entry, the outcome. Null to go on. */
  private RunEnd refundOne(long batchId, String merchant, BatchItem item, Held held) {
    if (!keep(batchId, held)) {
      return lost(batchId);
    }
    RunEnd unpaced = paced(batchId, item.accountId(), held);
    if (unpaced != null) {
      return unpaced;
    }
    CreateOutcome outcome;
    try {
      outcome = entry.request(BatchRefundKey.request(merchant, item));
    } catch (Overloaded full) {
      // The order may exist; asked again later it is a replay of this batch's own order.
      store.release(batchId, held.token, clock.instant().plus(settings.overloadBackoff()), now());
      return RunEnd.OVERLOADED;
    }
    return record(batchId, item, held, ItemDecision.decide(outcome));
  }

  private RunEnd record(long batchId, BatchItem item, Held held, ItemDecision.Result result) {
    if (!store.recordItem(batchId, held.token, item.id(), result, now())) {
      return lost(batchId);
    }
    events.itemDecided(result.outcome());
    held.cursor = item.id();
    return null;
  }

  /**
   * Waits for the account's next slot within the lease; once more after extending it. A backlog
   * longer than a lease (other nodes' batches and refunds share the account) releases the batch
   * until the backlog has drained. Null when the slot is taken.
   */
  private RunEnd paced(long batchId, long accountId, Held held) {
    if (budget.acquireWithin(accountId, settings.qps(), held.until, clock)) {
      return null;
    }
    if (!renew(batchId, held)) {
      return lost(batchId);
    }
    if (budget.acquireWithin(accountId, settings.qps(), held.until, clock)) {
      return null;
    }
    store.release(batchId, held.token, now().plus(budget.backlog(accountId)), now());
    return RunEnd.PACED;
  }

  /** Extends the lease once half of it is spent. */
  private boolean keep(long batchId, Held held) {
    Duration left = Duration.between(clock.instant(), held.until);
    return left.compareTo(settings.lease().dividedBy(2)) > 0 || renew(batchId, held);
  }

  private boolean renew(long batchId, Held held) {
    Instant now = now();
    Instant until = now.plus(settings.lease());
    if (!store.checkpoint(batchId, held.token, held.cursor, until, now)) {
      return false;
    }
    held.until = until;
    return true;
  }

  private RunEnd settleOrWait(long batchId, Held held) {
    store.settle(batchId, held.token, now());
    BatchProgress progress = store.progress(batchId);
    if (progress.allFinal()) {
      if (!store.finish(batchId, held.token, progress, now())) {
        return lost(batchId);
      }
      events.finished(batchId);
      return RunEnd.DONE;
    }
    Instant due = now().plus(settings.settleInterval());
    if (!store.release(batchId, held.token, due, now())) {
      return lost(batchId);
    }
    return RunEnd.WAITING_FOR_ORDERS;
  }

  private RunEnd lost(long batchId) {
    events.leaseLost(batchId);
    return RunEnd.LEASE_LOST;
  }

  private Instant now() {
    return clock.instant();
  }
}
