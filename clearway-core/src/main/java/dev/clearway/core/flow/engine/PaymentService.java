package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.decision.PaymentDecision;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.RescheduleWrite;
import dev.clearway.core.flow.port.KeyClaim;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.runtime.Overloaded;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * The synchronous entry: create the goal's next attempt (or find its live one) and advance it in
 * the caller's thread. The creation lease keeps scanners and wake-ups away while the caller works.
 */
public final class PaymentService {
  private final FlowStore store;
  private final Advancer advancer;
  private final LeaseTokens leases;
  private final WakeupScheduler wakeups;
  private final Clock clock;

  /** Without wake-ups: an advance no thread took waits for the scanner. */
  public PaymentService(FlowStore store, Advancer advancer, LeaseTokens leases, Clock clock) {
    this(store, advancer, leases, WakeupScheduler.NONE, clock);
  }

  /**
   * @param wakeups told to advance, at once, a flow whose synchronous advance no thread took
   */
  public PaymentService(
      FlowStore store,
      Advancer advancer,
      LeaseTokens leases,
      WakeupScheduler wakeups,
      Clock clock) {
    this.store = store;
    this.advancer = advancer;
    this.leases = leases;
    this.wakeups = wakeups;
    this.clock = clock;
  }

  /** What the synchronous call returns: the attempt and whether this call created it. */
  public record Started(AdvanceResult result, boolean created) {
    public PayFlow flow() {
      return result.flow();
    }
  }

  /**
   * Starts a payment. If the goal already has a live attempt, that attempt is returned and advanced
   * (the "payment in progress" answer); a new attempt is only created after a definite failure.
   */
  public Started start(NewPayment payment) {
    Lease lease = leases.next();
    CreateResult created = create(payment, lease);
    if (!created.created()) {
      return new Started(
          advancer.advance(created.flow().id(), Trigger.unclaimed(TriggerSource.SYNC)), false);
    }
    return new Started(
        advancer.advanceStarted(created.flow(), Trigger.held(TriggerSource.SYNC, lease)), true);
  }

  /**
   * The goal's live attempt, or a new one: started (created in PAYING, in the same commit) while
   * its deadline is ahead, else WAIT_PAY, which the advance closes before any charge.
   */
  private CreateResult create(NewPayment payment, Lease lease) {
    return create(payment, lease, null);
  }

  /** As above, with {@code key} (when not null) claimed in the creation's own commit. */
  private CreateResult create(NewPayment payment, Lease lease, KeyClaim key) {
    Instant now = clock.instant();
    boolean started = PaymentDecision.startsAtCreation(payment, now);
    if (key != null) {
      return store.createClaiming(payment, lease, now, started, key);
    }
    return started
        ? store.createStarted(payment, lease, now)
        : store.createAttempt(payment, lease, now);
  }

  /**
   * Starts a payment and advances it on {@code executor} for at most {@code budget}. When the
   * budget runs out the advance goes on in the background and the answer is the row as it is now (a
   * timeout inside the service is PROCESSING, never a failure).
   *
   * @throws Overloaded when {@code executor} refuses the advance (every thread busy, its queue
   *     full): the attempt exists all the same; it is handed to the background (see {@link
   *     #handOver}) and nothing waits for it here
   */
  public Started start(NewPayment payment, Duration budget, Executor executor) {
    return start(payment, budget, executor, null);
  }

  /**
   * {@link #start(NewPayment, Duration, Executor)} with {@code key}, when not null, claimed in the
   * creation's own commit ({@link FlowStore#createClaiming}).
   *
   * @throws dev.clearway.core.flow.port.KeyTakenException when another request holds the key;
   *     nothing was written
   */
  public Started start(NewPayment payment, Duration budget, Executor executor, KeyClaim key) {
    Lease lease = leases.next();
    CreateResult created = create(payment, lease, key);
    long flowId = created.flow().id();
    Supplier<AdvanceResult> advance =
        created.created()
            ? () -> advancer.advanceStarted(created.flow(), Trigger.held(TriggerSource.SYNC, lease))
            : () -> advancer.advance(flowId, Trigger.unclaimed(TriggerSource.SYNC));
    CompletableFuture<AdvanceResult> running;
    try {
      running = CompletableFuture.supplyAsync(advance, executor);
    } catch (RejectedExecutionException full) {
      handOver(created, lease);
      throw new Overloaded(flowId);
    }
    try {
      return new Started(running.get(budget.toMillis(), TimeUnit.MILLISECONDS), created.created());
    } catch (TimeoutException | ExecutionException e) {
      // Still running, or the worker died (its lease expires and the scanner takes over).
      PayFlow now = store.find(flowId).orElse(created.flow());
      return new Started(new AdvanceResult(AdvanceResult.Outcome.WAITING, now), created.created());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      PayFlow now = store.find(flowId).orElse(created.flow());
      return new Started(new AdvanceResult(AdvanceResult.Outcome.WAITING, now), created.created());
    }
  }

  /**
   * No thread took the synchronous advance: the creation lease is released with the flow due now
   * and a wake-up asks a background worker for it, so that it goes on at once rather than when the
   * lease would have expired. Both are hints: a release that finds the lease no longer this call's,
   * a failed write or a dropped wake-up leaves the flow to the scanner (due now, or when the lease
   * expires).
   */
  private void handOver(CreateResult created, Lease lease) {
    PayFlow flow = created.flow();
    Instant now = clock.instant();
    if (created.created()) {
      try {
        store.reschedule(
            new RescheduleWrite(
                flow,
                flow.retryCount(),
                now,
                flow.lastErrorCode(),
                flow.reviewState(),
                flow.reviewReason(),
                now,
                lease.token()));
      } catch (RuntimeException e) {
        // The lease stays and expires; the scanner takes the flow then. The caller's answer (the
        // payment exists, retry with the same key) holds either way.
      }
    }
    wakeups.schedule(flow.id(), now);
  }
}
