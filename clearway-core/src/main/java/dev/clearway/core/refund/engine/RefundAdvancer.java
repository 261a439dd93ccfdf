package dev.clearway.core.refund.engine;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import dev.clearway.core.lease.LeaseHold;
import dev.clearway.core.lease.LeasedAdvance;
import dev.clearway.core.lease.LeasedAdvance.Step;
import dev.clearway.core.refund.decision.RefundOrderDecision;
import dev.clearway.core.refund.decision.RefundOrderDecision.Move;
import dev.clearway.core.refund.decision.RefundOrderDecision.Verdict;
import dev.clearway.core.refund.decision.RefundOrderDecision.Wait;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import dev.clearway.core.refund.engine.RefundAdvanceResult.Outcome;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.refund.port.RefundStore.RescheduleWrite;
import dev.clearway.core.refund.port.RefundStore.TransitionWrite;
import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one entry that moves an after-sales refund, for the creating request, wake-ups and the refund
 * scanner alike. Each step starts from the row as the primary has it, makes at most one kind of
 * wallet call, decides with {@link RefundOrderDecision} and writes with a CAS on (id, status,
 * version). The state is written before the wallet is called (PENDING to PROCESSING, then send), so
 * a crash after the call leaves a PROCESSING row that is queried by the same refund number.
 */
public final class RefundAdvancer {
  /** PENDING, PROCESSING, one decisive answer: more steps than any path needs. */
  private static final int MAX_STEPS = 6;

  /** The leased table, as counted in {@link RefundEvents#leaseLost}. */
  private static final String TABLE = "refund_order";

  private final RefundStore store;
  private final FlowStore flows;
  private final WalletGateway wallet;
  private final WakeupScheduler wakeups;
  private final RefundEvents events;
  private final LeasedAdvance<RefundOrder, RefundAdvanceResult> loop;
  private final Backoff backoff;
  private final EngineConfig config;
  private final Clock clock;

  public RefundAdvancer(
      RefundStore store,
      FlowStore flows,
      WalletGateway wallet,
      WakeupScheduler wakeups,
      RefundEvents events,
      LeaseTokens leases,
      EngineConfig config,
      Clock clock) {
    this.store = store;
    this.flows = flows;
    this.wallet = wallet;
    this.wakeups = wakeups;
    this.events = events;
    this.backoff = new Backoff(config);
    this.loop =
        new LeasedAdvance<>(
            store,
            new RefundMachine(),
            leases,
            backoff,
            clock,
            MAX_STEPS,
            () -> events.leaseLost(TABLE));
    this.config = config;
    this.clock = clock;
  }

  /**
   * Advances a refund as far as the facts allow; claims it unless the trigger holds a lease that
   * has not expired (a scanner task that waited in a queue past its lease claims afresh).
   */
  public RefundAdvanceResult advance(long refundId, Trigger trigger) {
    return loop.advance(refundId, trigger);
  }

  /** Advances a refund its creating transaction has just returned, under the creation lease. */
  public RefundAdvanceResult advanceCreated(RefundOrder created, Trigger trigger) {
    return loop.advanceCreated(created, trigger);
  }

  /** The refund's part of the leased-advance loop. */
  private final class RefundMachine
      implements LeasedAdvance.Machine<RefundOrder, RefundAdvanceResult> {
    @Override
    public long id(RefundOrder refund) {
      return refund.id();
    }

    @Override
    public boolean ended(RefundOrder refund) {
      return refund.isTerminal();
    }

    @Override
    public RefundAdvanceResult settle(RefundOrder refund) {
      return settled(refund, Outcome.BUSY);
    }

    @Override
    public String leaseOwner(RefundOrder refund) {
      return refund.leaseOwner();
    }

    @Override
    public Step<RefundOrder, RefundAdvanceResult> step(RefundOrder refund, LeaseHold step) {
      StepResult result =
          switch (refund.status()) {
            case PENDING -> send(refund, step);
            case PROCESSING, ABNORMAL -> confirm(refund, step);
            case SUCCESS, FAIL, CLOSED -> StepResult.end(Outcome.TERMINAL);
          };
      if (result.outcome() == null) {
        return Step.next(result.next());
      }
      RefundOrder last =
          result.next() != null ? result.next() : store.find(refund.id()).orElse(null);
      return Step.done(settled(last, result.outcome()));
    }

    @Override
    public RefundAdvanceResult stepLimit(RefundOrder refund, LeaseHold step) {
      StepResult handover = reschedule(refund, step, "STEP_LIMIT");
      return settled(store.find(refund.id()).orElse(null), handover.outcome());
    }
  }

  private static RefundAdvanceResult settled(RefundOrder refund, Outcome outcome) {
    if (refund == null) {
      return new RefundAdvanceResult(Outcome.NOT_FOUND, null);
    }
    return new RefundAdvanceResult(refund.isTerminal() ? Outcome.TERMINAL : outcome, refund);
  }

  // ---- PENDING -----------------------------------------------------------------------------

  private StepResult send(RefundOrder refund, LeaseHold step) {
    FlowStatus flowStatus = flows.find(refund.flowId()).map(PayFlow::status).orElse(null);
    Verdict verdict = RefundOrderDecision.onPending(flowStatus);
    if (!(verdict instanceof Move m) || m.to() != RefundStatus.PROCESSING) {
      return apply(refund, verdict, step, null, "FLOW_STATUS");
    }
    // Claim the state before calling the wallet: whoever wins this CAS is the one that sends.
    Optional<RefundOrder> processing =
        move(refund, RefundStatus.PROCESSING, null, step, null, "SEND");
    if (processing.isEmpty()) {
      return StepResult.end(Outcome.BUSY);
    }
    WalletResult result = refund(processing.get(), processing.get().nextRetryTime());
    return apply(
        processing.get(),
        RefundOrderDecision.onResult(processing.get(), result, config.retryBudget()),
        step,
        result,
        null);
  }

  // ---- PROCESSING, ABNORMAL ----------------------------------------------------------------

  private StepResult confirm(RefundOrder refund, LeaseHold step) {
    // The claimed row's next_retry_time is its lease expiry: paced calls do not wait past it.
    Instant leaseEnd = refund.nextRetryTime();
    WalletResult query =
        call("AFTER_SALE_REFUND_QUERY", () -> wallet.queryRefund(refund.refundNo(), leaseEnd));
    WalletResult result =
        switch (RefundOrderDecision.afterQuery(query)) {
          case DECIDE -> query;
          case RESEND_SAME_REFUND -> refund(refund, leaseEnd);
        };
    return apply(
        refund,
        RefundOrderDecision.onResult(refund, result, config.retryBudget()),
        step,
        result,
        null);
  }

  private WalletResult refund(RefundOrder refund, Instant leaseEnd) {
    RefundRequest request =
        new RefundRequest(
            refund.refundNo(), refund.tradeOrderNo(), refund.amount(), refund.currency());
    return call("AFTER_SALE_REFUND", () -> wallet.refund(request, leaseEnd));
  }

  // ---- carrying out verdicts ---------------------------------------------------------------

  private StepResult apply(
      RefundOrder refund,
      Verdict verdict,
      LeaseHold step,
      WalletResult result,
      String resultClass) {
    String requestId = result == null ? null : result.requestId();
    String klass = resultClass != null ? resultClass : result.certainty().name();
    if (verdict instanceof Wait w) {
      return reschedule(refund, step, w.errorCode());
    }
    Move m = (Move) verdict;
    Optional<RefundOrder> moved = move(refund, m.to(), m.errorCode(), step, requestId, klass);
    if (moved.isEmpty()) {
      return StepResult.end(Outcome.BUSY);
    }
    RefundOrder row = moved.get();
    return switch (row.status()) {
      case SUCCESS, FAIL, CLOSED -> new StepResult(row, Outcome.TERMINAL);
      case ABNORMAL -> new StepResult(row, Outcome.WAITING);
      case PENDING, PROCESSING -> StepResult.next(row);
    };
  }

  private Optional<RefundOrder> move(
      RefundOrder refund,
      RefundStatus to,
      String errorCode,
      LeaseHold step,
      String requestId,
      String klass) {
    RefundTransitions.requireLegal(refund.status(), to);
    Instant now = clock.instant();
    // PROCESSING keeps the lease (this worker sends next); ABNORMAL releases it and is queried
    // again at the escalated interval, never dropped; a terminal status releases it for good.
    Placement placed =
        switch (to) {
          case SUCCESS, FAIL, CLOSED -> new Placement(now, null);
          case PROCESSING -> new Placement(now.plus(config.lease()), step.holder());
          case ABNORMAL -> new Placement(backoff.next(refund.id(), 0, true, now), null);
          case PENDING -> throw new IllegalStateException("nothing moves back to PENDING");
        };
    HistoryNote note =
        new HistoryNote(
            step.trigger().source(), requestId, klass, clock.millis() - step.startedAt());
    Optional<RefundOrder> written =
        store.transition(
            new TransitionWrite(
                refund,
                to,
                errorCode,
                placed.nextRetryTime(),
                placed.leaseToken(),
                note,
                now,
                step.holder()));
    if (written.isEmpty()) {
      onConflict(refund, to, step);
      return Optional.empty();
    }
    events.transitioned(refund.status(), to);
    if (to == RefundStatus.ABNORMAL) {
      events.abnormal(refund.id(), errorCode);
      wakeups.schedule(refund.id(), placed.nextRetryTime());
    }
    return written;
  }

  /**
   * 0 rows updated: a worker that no longer holds the lease wrote nothing and stops (the holder
   * decides now). Otherwise someone else moved the refund: the same or a later state ends the step
   * idempotently; anything else (meant SUCCESS, found FAIL: two wallet answers that disagree) is
   * reported as a contradiction for a person to look at.
   */
  private void onConflict(RefundOrder refund, RefundStatus intended, LeaseHold step) {
    RefundOrder current = store.find(refund.id()).orElseThrow();
    if (!step.holder().equals(current.leaseOwner())) {
      loop.leaseLost();
      return;
    }
    boolean idempotent =
        current.status() == refund.status()
            || RefundTransitions.isSameOrLater(intended, current.status());
    events.casConflict(intended, current.status(), idempotent ? "IDEMPOTENT" : "CONTRADICTION");
  }

  private StepResult reschedule(RefundOrder refund, LeaseHold step, String errorCode) {
    boolean slow = refund.status() == RefundStatus.ABNORMAL;
    // Only the holder moves a refund, and every transition it makes keeps or releases its own
    // lease: a refused reschedule means the lease is lost. Nothing was written (counted).
    Optional<Instant> next =
        loop.reschedule(
            refund.id(),
            refund.retryCount(),
            slow,
            (due, now) ->
                store.reschedule(
                    new RescheduleWrite(
                        refund, refund.retryCount() + 1, due, errorCode, now, step.holder())));
    if (next.isEmpty()) {
      return StepResult.end(Outcome.BUSY);
    }
    events.rescheduled(refund.status(), errorCode);
    wakeups.schedule(refund.id(), next.get());
    return StepResult.end(Outcome.WAITING);
  }

  private WalletResult call(String kind, Supplier<WalletResult> io) {
    WalletResult result = io.get();
    events.externalCall(kind, result.certainty().name());
    return result;
  }

  /** Where a transition leaves the row: when it is next due, and who holds it meanwhile. */
  private record Placement(Instant nextRetryTime, String leaseToken) {}

  /** Either the row to continue from (outcome null), or the outcome that ends this advance. */
  private record StepResult(RefundOrder next, Outcome outcome) {
    static StepResult next(RefundOrder row) {
      return new StepResult(row, null);
    }

    static StepResult end(Outcome outcome) {
      return new StepResult(null, outcome);
    }
  }
}
