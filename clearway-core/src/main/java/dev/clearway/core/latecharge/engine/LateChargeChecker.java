package dev.clearway.core.latecharge.engine;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.latecharge.decision.LateChargeDecision;
import dev.clearway.core.latecharge.decision.LateChargeDecision.Ask;
import dev.clearway.core.latecharge.decision.LateChargeDecision.Move;
import dev.clearway.core.latecharge.decision.LateChargeDecision.Verdict;
import dev.clearway.core.latecharge.decision.LateChargeDecision.Wait;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.LateChargeTransitions;
import dev.clearway.core.latecharge.port.LateChargeEvents;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.core.latecharge.port.LateChargeStore.RescheduleWrite;
import dev.clearway.core.latecharge.port.LateChargeStore.TransitionWrite;
import dev.clearway.core.lease.LeaseHold;
import dev.clearway.core.lease.LeasedAdvance;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * The one entry that moves a late-charge check, for the late-charge scanner and any other trigger
 * alike. Each step starts from the row as the primary has it, asks the wallet at most once, decides
 * with {@link LateChargeDecision} and writes with a CAS fenced by the lease it holds: a worker
 * whose lease was taken over changes nothing and stops. The confirmed charge is written before the
 * refund is requested, and the refund's key is fixed per flow, so a crash between the two only
 * repeats an idempotent request. A check left for later (rescheduled, or escalated to MANUAL) is
 * handed to the wake-ups at its next check time; the late-charge scanner remains the safety net.
 */
public final class LateChargeChecker {
  static final String TABLE = "late_charge_check";

  /** How an advance ended. */
  public enum Outcome {
    NOT_FOUND,
    /** Another worker holds the check (or took it over). */
    BUSY,
    /** The check has ended. */
    TERMINAL,
    /** Rescheduled: asked again after backoff. */
    WAITING,
    /** Escalated: a person must look; asked again at the escalated interval. */
    MANUAL
  }

  /** PENDING -> CHARGE_CONFIRMED -> REFUND_REQUESTED is the longest path of one advance. */
  private static final int MAX_STEPS = 3;

  private final LateChargeStore store;
  private final FlowStore flows;
  private final WalletGateway wallet;
  private final RefundService refunds;
  private final LateChargeEvents events;
  private final WakeupScheduler wakeups;
  private final LeasedAdvance<LateChargeCheck, Outcome> loop;
  private final Backoff backoff;
  private final EngineConfig config;
  private final Clock clock;

  public LateChargeChecker(
      LateChargeStore store,
      FlowStore flows,
      WalletGateway wallet,
      RefundService refunds,
      LateChargeEvents events,
      LeaseTokens leases,
      EngineConfig config,
      Clock clock) {
    this(store, flows, wallet, refunds, events, WakeupScheduler.NONE, leases, config, clock);
  }

  /**
   * @param wakeups told of every check left for later, with its next check time (check ids)
   */
  public LateChargeChecker(
      LateChargeStore store,
      FlowStore flows,
      WalletGateway wallet,
      RefundService refunds,
      LateChargeEvents events,
      WakeupScheduler wakeups,
      LeaseTokens leases,
      EngineConfig config,
      Clock clock) {
    this.store = store;
    this.wakeups = wakeups;
    this.flows = flows;
    this.wallet = wallet;
    this.refunds = refunds;
    this.events = events;
    this.backoff = new Backoff(config);
    this.loop =
        new LeasedAdvance<>(
            store,
            new CheckMachine(),
            leases,
            backoff,
            clock,
            MAX_STEPS,
            () -> {
              events.leaseLost(TABLE);
              events.checked("LEASE_LOST");
            });
    this.config = config;
    this.clock = clock;
  }

  /**
   * Advances a check as far as the facts allow; claims it unless the trigger holds a lease that has
   * not expired.
   */
  public Outcome advance(long checkId, Trigger trigger) {
    return loop.advance(checkId, trigger);
  }

  /** The check's part of the leased-advance loop. */
  private final class CheckMachine implements LeasedAdvance.Machine<LateChargeCheck, Outcome> {
    @Override
    public long id(LateChargeCheck check) {
      return check.id();
    }

    @Override
    public boolean ended(LateChargeCheck check) {
      return check.isTerminal();
    }

    @Override
    public Outcome settle(LateChargeCheck check) {
      if (check == null) {
        return Outcome.NOT_FOUND;
      }
      return check.isTerminal() ? Outcome.TERMINAL : Outcome.BUSY;
    }

    @Override
    public String leaseOwner(LateChargeCheck check) {
      return check.leaseOwner();
    }

    @Override
    public LeasedAdvance.Step<LateChargeCheck, Outcome> step(
        LateChargeCheck check, LeaseHold hold) {
      Step next =
          switch (check.status()) {
            case PENDING, MANUAL -> ask(check, hold.lease());
            case CHARGE_CONFIRMED -> orderRefund(check, hold.lease());
            case NO_CHARGE, REFUND_REQUESTED, NOT_APPLICABLE -> Step.end(Outcome.TERMINAL);
          };
      return next.outcome() != null
          ? LeasedAdvance.Step.done(next.outcome())
          : LeasedAdvance.Step.next(next.row());
    }

    @Override
    public Outcome stepLimit(LateChargeCheck check, LeaseHold hold) {
      // Unreachable on a legal path; the row stays held until its lease expires.
      return Outcome.WAITING;
    }
  }

  // ---- PENDING, MANUAL ---------------------------------------------------------------------

  private Step ask(LateChargeCheck check, Lease lease) {
    Optional<PayFlow> flow = flows.find(check.flowId());
    Verdict verdict = LateChargeDecision.onFlow(flow.map(PayFlow::status).orElse(null));
    if (!(verdict instanceof Ask)) {
      return apply(check, verdict, lease, "FLOW_STATUS");
    }
    WalletResult result = wallet.queryPayment(check.tradeOrderNo());
    events.externalCall("LATE_CHARGE_QUERY", result.certainty().name());
    return apply(
        check,
        LateChargeDecision.afterQuery(check, result, config.retryBudget()),
        lease,
        result.certainty().name());
  }

  // ---- CHARGE_CONFIRMED --------------------------------------------------------------------

  private Step orderRefund(LateChargeCheck check, Lease lease) {
    Optional<PayFlow> flow = flows.find(check.flowId());
    if (flow.isEmpty()) {
      return apply(
          check,
          LateChargeDecision.afterRefundRequest(new CreateOutcome.FlowNotFound()),
          lease,
          "REFUND_REQUEST");
    }
    // The fixed key: this request, a repeat after a crash and a request by the sweep are one.
    CreateOutcome outcome =
        refunds.request(NewRefund.lateCharge(check.flowId(), flow.get().amount()));
    return apply(check, LateChargeDecision.afterRefundRequest(outcome), lease, "REFUND_REQUEST");
  }

  // ---- carrying out verdicts ---------------------------------------------------------------

  private Step apply(LateChargeCheck check, Verdict verdict, Lease lease, String resultClass) {
    Instant now = clock.instant();
    if (verdict instanceof Wait w) {
      boolean slow = check.status() == LateChargeStatus.MANUAL;
      Optional<Instant> next =
          loop.reschedule(
              check.id(),
              check.retryCount(),
              slow,
              (due, at) ->
                  store.reschedule(
                      new RescheduleWrite(
                          check, lease.token(), resultClass, w.errorCode(), due, at)));
      if (next.isEmpty()) {
        return Step.end(Outcome.BUSY);
      }
      events.checked("RETRY");
      wakeups.schedule(check.id(), next.get());
      return Step.end(slow ? Outcome.MANUAL : Outcome.WAITING);
    }
    if (verdict instanceof Move m) {
      return move(check, m, lease, resultClass, now);
    }
    throw new IllegalStateException("nothing to apply for " + verdict);
  }

  private Step move(LateChargeCheck check, Move m, Lease lease, String resultClass, Instant now) {
    LateChargeTransitions.requireLegal(check.status(), m.to());
    // CHARGE_CONFIRMED keeps the lease (this worker requests the refund next); MANUAL releases it
    // and is asked again at the escalated interval; a terminal state releases it for good.
    Placement placed =
        switch (m.to()) {
          case CHARGE_CONFIRMED -> new Placement(now.plus(config.lease()), lease.token());
          case MANUAL -> new Placement(backoff.next(check.id(), 0, true, now), null);
          case NO_CHARGE, REFUND_REQUESTED, NOT_APPLICABLE -> new Placement(now, null);
          case PENDING -> throw new IllegalStateException("nothing moves back to PENDING");
        };
    Optional<LateChargeCheck> written =
        store.transition(
            new TransitionWrite(
                check,
                m.to(),
                lease.token(),
                resultClass,
                m.errorCode(),
                m.refundId(),
                placed.nextCheckTime(),
                placed.leaseOwner(),
                now));
    if (written.isEmpty()) {
      return lost();
    }
    events.checked(m.to().name());
    if (m.to() == LateChargeStatus.MANUAL) {
      wakeups.schedule(check.id(), placed.nextCheckTime());
    }
    return switch (m.to()) {
      case CHARGE_CONFIRMED -> Step.next(written.get());
      case MANUAL -> Step.end(Outcome.MANUAL);
      case NO_CHARGE, REFUND_REQUESTED, NOT_APPLICABLE, PENDING -> Step.end(Outcome.TERMINAL);
    };
  }

  /** 0 rows: the lease was taken over (or the row moved); nothing was changed. */
  private Step lost() {
    loop.leaseLost();
    return Step.end(Outcome.BUSY);
  }

  /** Where a transition leaves the row: when it is next due, and who holds it meanwhile. */
  private record Placement(Instant nextCheckTime, String leaseOwner) {}

  /** Either the row to continue from (outcome null), or the outcome that ends this advance. */
  private record Step(LateChargeCheck row, Outcome outcome) {
    static Step next(LateChargeCheck row) {
      return new Step(row, null);
    }

    static Step end(Outcome outcome) {
      return new Step(null, outcome);
    }
  }
}
