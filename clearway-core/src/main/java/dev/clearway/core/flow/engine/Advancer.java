package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.decision.BusinessDecision;
import dev.clearway.core.flow.decision.Decision;
import dev.clearway.core.flow.decision.PaymentDecision;
import dev.clearway.core.flow.decision.RefundDecision;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.AdvanceResult.Outcome;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import dev.clearway.core.lease.LeaseHold;
import dev.clearway.core.lease.LeasedAdvance;
import dev.clearway.core.lease.LeasedAdvance.Step;
import dev.clearway.core.runtime.Backoff;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one entry that moves a flow: {@code advance(flowId, trigger)} serves the synchronous call,
 * delayed wake-ups, the scanner and callbacks alike.
 *
 * <p>Each step starts from the row as the primary has it (read, or returned by the last CAS in the
 * same statement), makes at most one kind of external call, decides with a pure function and writes
 * with a CAS fenced by the lease it holds ({@link FlowWrites}); the claim, the lease check and the
 * step loop are the shared {@link LeasedAdvance}. A step that finds nothing decisive reschedules
 * the flow and releases its lease; a wake-up or the scanner continues it later.
 */
public final class Advancer {
  private static final int MAX_STEPS = 8;

  private final FlowStore store;
  private final WalletGateway wallet;
  private final BusinessGateway business;
  private final EngineEvents events;
  private final LeasedAdvance<PayFlow, AdvanceResult> loop;
  private final FlowWrites writes;
  private final PageSteps pages;
  private final EngineConfig config;
  private final Clock clock;

  public Advancer(
      FlowStore store,
      WalletGateway wallet,
      BusinessGateway business,
      WakeupScheduler wakeups,
      EngineEvents events,
      LeaseTokens leases,
      EngineConfig config,
      Clock clock) {
    this.store = store;
    this.wallet = wallet;
    this.business = business;
    this.events = events;
    this.loop =
        new LeasedAdvance<>(
            store,
            new FlowMachine(),
            leases,
            new Backoff(config),
            clock,
            MAX_STEPS,
            () -> events.leaseLost(FlowWrites.TABLE));
    this.writes = new FlowWrites(store, wakeups, events, loop, config, clock);
    this.pages = new PageSteps(loop, writes, wallet, business, events, config, clock, MAX_STEPS);
    this.config = config;
    this.clock = clock;
  }

  /**
   * Advances a flow as far as the facts allow; re-reads the row from the primary first, unless the
   * trigger carries the row its claim returned (a scanner's page). A trigger without a lease, or
   * whose lease expired while it waited (a scanner task in a queue), claims the flow afresh from a
   * fresh read; the claim fails while another worker holds it.
   */
  public AdvanceResult advance(long flowId, Trigger trigger) {
    if (trigger.claimed() != null && trigger.claimed().id() == flowId) {
      return loop.advanceCreated(trigger.claimed(), trigger);
    }
    return loop.advance(flowId, trigger);
  }

  /**
   * Advances a page of distinct rows the caller's claim returned under {@code trigger}'s lease (a
   * scanner's page, or a share of it) together: each round reads every held flow's facts, decides
   * each, and writes the round's transitions in one call of {@link FlowStore#transitions}. A flow
   * whose next step needs a call with a side effect goes on alone; with the lease expired, each row
   * is claimed afresh. One result per row.
   */
  public List<AdvanceResult> advancePage(List<PayFlow> page, Trigger trigger) {
    return pages.advance(page, trigger);
  }

  /**
   * Advances a row that the caller's own transaction has just written and returned (creation): the
   * row is the primary's current state, held by {@code lease}, so no second read is needed.
   */
  public AdvanceResult advanceCreated(PayFlow created, Trigger trigger) {
    return loop.advanceCreated(created, trigger);
  }

  /**
   * Advances a row the caller's own statement has just created already in PAYING under {@code
   * trigger}'s lease, its charge not sent yet (creation and start in one commit): the first step
   * sends the charge, as the WAIT_PAY step does right after its move to PAYING, and the steps after
   * it are the usual ones. Any other row is advanced as {@link #advanceCreated}.
   */
  public AdvanceResult advanceStarted(PayFlow started, Trigger trigger) {
    boolean unsent =
        started.status() == FlowStatus.PAYING
            && trigger.lease() != null
            && trigger.lease().token().equals(started.leaseOwner());
    if (!unsent) {
      return advanceCreated(started, trigger);
    }
    return loop.advanceStarted(started, trigger, (flow, step) -> toStep(flow, charge(flow, step)));
  }

  /** The flow's part of the leased-advance loop. */
  private final class FlowMachine implements LeasedAdvance.Machine<PayFlow, AdvanceResult> {
    @Override
    public long id(PayFlow flow) {
      return flow.id();
    }

    @Override
    public boolean ended(PayFlow flow) {
      return flow.isTerminal() || flow.isFrozen();
    }

    @Override
    public AdvanceResult settle(PayFlow flow) {
      return settled(flow, Outcome.BUSY);
    }

    @Override
    public String leaseOwner(PayFlow flow) {
      return flow.leaseOwner();
    }

    @Override
    public Step<PayFlow, AdvanceResult> step(PayFlow flow, LeaseHold step) {
      StepResult result =
          switch (flow.status()) {
            case WAIT_PAY -> waitPay(flow, step);
            case PAYING -> confirmPayment(flow, step);
            case PAYED -> confirmBusiness(flow, step);
            case REFUNDING -> confirmRefund(flow, step);
            case PAY_FAIL, BIZ_SUCCESS, REFUNDED, CLOSED -> StepResult.end(Outcome.TERMINAL);
          };
      return toStep(flow, result);
    }

    @Override
    public AdvanceResult stepLimit(PayFlow flow, LeaseHold step) {
      // More steps than any legal path has: hand over to a later trigger rather than spin.
      Outcome handover = writes.reschedule(flow, step, "STEP_LIMIT", false);
      return settled(store.find(flow.id()).orElse(null), handover);
    }
  }

  private Step<PayFlow, AdvanceResult> toStep(PayFlow flow, StepResult result) {
    if (result.outcome() == null) {
      return Step.next(result.next());
    }
    PayFlow last = result.next() != null ? result.next() : store.find(flow.id()).orElse(null);
    return Step.done(settled(last, result.outcome()));
  }

  static AdvanceResult settled(PayFlow flow, Outcome outcome) {
    if (flow == null) {
      return new AdvanceResult(Outcome.NOT_FOUND, null);
    }
    if (flow.isTerminal()) {
      return new AdvanceResult(Outcome.TERMINAL, flow);
    }
    return new AdvanceResult(flow.isFrozen() ? Outcome.FROZEN : outcome, flow);
  }

  // ---- WAIT_PAY ----------------------------------------------------------------------------

  private StepResult waitPay(PayFlow flow, LeaseHold step) {
    if (!flow.hasOrderNumbers()) {
      // Crash between insert and number write: derive the very same numbers from the id.
      store.assignOrderNumbers(
          flow.id(), OrderNumbers.derive(flow.goal().userId(), flow.id()), clock.instant());
      return StepResult.next(store.find(flow.id()).orElse(null));
    }
    Decision decision = PaymentDecision.startPayment(flow, clock.instant());
    if (!(decision instanceof Decision.Move start) || start.to() != FlowStatus.PAYING) {
      return apply(flow, decision, step, null, "DEADLINE");
    }
    Optional<PayFlow> paying = writes.move(flow, FlowStatus.PAYING, null, step, null, "START_PAY");
    if (paying.isEmpty()) {
      return StepResult.end(Outcome.BUSY);
    }
    return charge(paying.get(), step);
  }

  /** Sends the charge of a PAYING row this step has just moved there, and decides from it. */
  private StepResult charge(PayFlow paying, LeaseHold step) {
    WalletResult result = pay(paying);
    return apply(paying, PaymentDecision.onPaymentResult(result), step, result, null);
  }

  // ---- PAYING ------------------------------------------------------------------------------

  private StepResult confirmPayment(PayFlow flow, LeaseHold step) {
    WalletResult query = call("PAY_QUERY", () -> wallet.queryPayment(flow.tradeOrderNo()));
    Instant now = clock.instant();
    return switch (PaymentDecision.afterQuery(flow, query, now, config.unpaidTimeout())) {
      case DECIDE -> apply(flow, PaymentDecision.onPaymentResult(query), step, query, null);
      case RESEND_SAME_ORDER -> {
        WalletResult result = pay(flow);
        yield apply(flow, PaymentDecision.onPaymentResult(result), step, result, null);
      }
      case CLOSE_ORDER -> {
        WalletResult closed =
            call("CLOSE", () -> wallet.closePayment(flow.tradeOrderNo(), leaseEnd(flow)));
        Decision decision =
            PaymentDecision.onCloseResult(closed, PaymentDecision.closeReason(flow, now));
        yield apply(flow, decision, step, closed, "CLOSE");
      }
    };
  }

  private WalletResult pay(PayFlow flow) {
    ChargeRequest request =
        new ChargeRequest(
            flow.tradeOrderNo(), flow.goal().userId(), flow.amount(), flow.currency());
    return call("PAY", () -> wallet.pay(request));
  }

  // ---- PAYED -------------------------------------------------------------------------------

  private StepResult confirmBusiness(PayFlow flow, LeaseHold step) {
    if (BusinessDecision.mayCallBusiness(flow, clock.instant())) {
      BizCallResult answer = business.fulfil(flow.goal(), flow.tradeOrderNo(), flow.bizDeadline());
      events.externalCall("BIZ_CALL", answer.name());
    }
    Decision decision = decideBusiness(flow);
    if (!BusinessDecision.isRefund(decision)) {
      return apply(flow, decision, step, null, "BIZ_FACT");
    }
    // Re-read the business fact right before committing to the refund.
    Decision again = decideBusiness(flow);
    if (!BusinessDecision.isRefund(again)) {
      if (again instanceof Decision.Move m && m.to() == FlowStatus.BIZ_SUCCESS) {
        events.refundBlockedByBizSuccess(flow.id());
      }
      return apply(flow, again, step, null, "BIZ_FACT");
    }
    String reason = ((Decision.Move) again).errorCode();
    Optional<PayFlow> refunding =
        writes.move(flow, FlowStatus.REFUNDING, reason, step, null, "BIZ_FACT");
    if (refunding.isEmpty()) {
      return StepResult.end(Outcome.BUSY);
    }
    WalletResult result = refund(refunding.get());
    return apply(refunding.get(), RefundDecision.onRefundResult(result), step, result, null);
  }

  private Decision decideBusiness(PayFlow flow) {
    BizFact fact = business.readFact(flow.goal());
    events.externalCall("BIZ_FACT", fact.state().name());
    return BusinessDecision.decide(flow, fact, clock.instant(), config.deadlineGrace());
  }

  // ---- REFUNDING ---------------------------------------------------------------------------

  private StepResult confirmRefund(PayFlow flow, LeaseHold step) {
    WalletResult query =
        call("REFUND_QUERY", () -> wallet.queryRefund(flow.refundOrderNo(), leaseEnd(flow)));
    WalletResult result =
        switch (RefundDecision.afterQuery(query)) {
          case DECIDE -> query;
          case RESEND_SAME_REFUND -> refund(flow);
        };
    return apply(flow, RefundDecision.onRefundResult(result), step, result, null);
  }

  private WalletResult refund(PayFlow flow) {
    RefundRequest request =
        new RefundRequest(
            flow.refundOrderNo(), flow.tradeOrderNo(), flow.amount(), flow.currency());
    return call("REFUND", () -> wallet.refund(request, leaseEnd(flow)));
  }

  /**
   * When the lease this step holds ends: a held row's {@code next_retry_time} is its lease expiry
   * (set by the claim, renewed by every transition that keeps the lease).
   */
  private static Instant leaseEnd(PayFlow held) {
    return held.nextRetryTime();
  }

  // ---- carrying out decisions --------------------------------------------------------------

  private StepResult apply(
      PayFlow flow, Decision decision, LeaseHold step, WalletResult result, String resultClass) {
    String requestId = result == null ? null : result.requestId();
    String klass = resultClass != null ? resultClass : result.certainty().name();
    if (decision instanceof Decision.Move m) {
      Optional<PayFlow> moved = writes.move(flow, m.to(), m.errorCode(), step, requestId, klass);
      if (moved.isEmpty()) {
        return StepResult.end(Outcome.BUSY);
      }
      return moved.get().isTerminal()
          ? new StepResult(moved.get(), Outcome.TERMINAL)
          : StepResult.next(moved.get());
    }
    if (decision instanceof Decision.Wait w) {
      return StepResult.end(writes.reschedule(flow, step, w.errorCode(), w.boundedByDeadline()));
    }
    if (decision instanceof Decision.Escalate e) {
      return StepResult.end(writes.escalate(flow, step, e.errorCode()));
    }
    return StepResult.end(writes.freeze(flow, step, ((Decision.Freeze) decision).reason()));
  }

  private WalletResult call(String kind, Supplier<WalletResult> io) {
    WalletResult result = io.get();
    events.externalCall(kind, result.certainty().name());
    return result;
  }

  /**
   * Either the row to continue from (outcome null), or the outcome that ends this advance with,
   * when known, the row as last written.
   */
  private record StepResult(PayFlow next, Outcome outcome) {
    static StepResult next(PayFlow row) {
      return new StepResult(row, null);
    }

    static StepResult end(Outcome outcome) {
      return new StepResult(null, outcome);
    }
  }
}
