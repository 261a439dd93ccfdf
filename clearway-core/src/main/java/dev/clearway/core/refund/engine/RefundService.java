package dev.clearway.core.refund.engine;

import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.runtime.Overloaded;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The synchronous entry of after-sales refunds: create the refund (the store decides, in one
 * transaction, whether it is allowed and fits), then advance it under its creation lease for at
 * most a short budget. A refund still PROCESSING when the budget runs out goes on in the
 * background; the answer is the row as it is then.
 */
public final class RefundService {
  private final RefundStore store;
  private final RefundAdvancer advancer;
  private final LeaseTokens leases;
  private final RefundEvents events;
  private final Clock clock;

  public RefundService(
      RefundStore store,
      RefundAdvancer advancer,
      LeaseTokens leases,
      RefundEvents events,
      Clock clock) {
    this.store = store;
    this.advancer = advancer;
    this.leases = leases;
    this.events = events;
    this.clock = clock;
  }

  /**
   * Creates (or replays) a refund and, if this call created it, advances it on {@code executor} for
   * at most {@code budget}. A {@link CreateOutcome.Created} carries the row as it is afterwards.
   *
   * @throws Overloaded when {@code executor} refuses the advance: the refund exists all the same,
   *     PENDING under its creation lease, and the refund scanner sends it once the lease expires
   */
  public CreateOutcome request(NewRefund request, Duration budget, Executor executor) {
    Lease lease = leases.next();
    CreateOutcome outcome = store.create(request, lease, clock.instant());
    if (!(outcome instanceof CreateOutcome.Created created)) {
      return outcome;
    }
    RefundOrder row = created.refund();
    events.created(row.id(), row.amount());
    CompletableFuture<RefundAdvanceResult> running;
    try {
      running =
          CompletableFuture.supplyAsync(
              () -> advancer.advanceCreated(row, Trigger.held(TriggerSource.SYNC, lease)),
              executor);
    } catch (RejectedExecutionException full) {
      // No worker took it: the creation lease expires and the refund scanner sends it.
      throw new Overloaded(row.id());
    }
    try {
      RefundAdvanceResult advanced = running.get(budget.toMillis(), TimeUnit.MILLISECONDS);
      return new CreateOutcome.Created(advanced.refund() != null ? advanced.refund() : row);
    } catch (TimeoutException | ExecutionException e) {
      // Still running, or the worker died: the lease expires and the refund scanner takes the
      // PENDING or PROCESSING row over. Answer the row as it is now.
      return new CreateOutcome.Created(store.find(row.id()).orElse(row));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new CreateOutcome.Created(store.find(row.id()).orElse(row));
    }
  }

  /** As {@link #request(NewRefund, Duration, Executor)}, advancing in the caller's thread. */
  public CreateOutcome request(NewRefund request) {
    return request(request, Duration.ofDays(1), Runnable::run);
  }
}
