package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.decision.BusinessDecision;
import dev.clearway.core.flow.decision.Decision;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.AdvanceResult.Outcome;
import dev.clearway.core.flow.engine.PageAdvance.Plan;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.lease.LeaseHold;
import dev.clearway.core.lease.LeasedAdvance;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The steps of a claimed page of flows taken together, round by round: each round gathers every
 * held flow's facts (one gateway call after another, as a flow alone would make them: a payed flow
 * whose business call is still allowed makes it, an idempotent fulfil by the goal, before its fact
 * is read), decides each with {@link PageAdvance}, and writes the round's transitions in one call
 * of {@link FlowWrites#moveAll}; the flows that moved and are not finished take the next round.
 *
 * <p>Rules: every round first checks that the page's lease is still live; once it has expired, each
 * remaining flow is advanced alone from a fresh claim. A flow whose write changed nothing (its row
 * moved, or its lease was taken over) leaves the page; the others go on. A flow whose next step
 * needs a call with a side effect continues on the one-flow path from the row it has.
 */
final class PageSteps {
  private final LeasedAdvance<PayFlow, AdvanceResult> loop;
  private final FlowWrites writes;
  private final WalletGateway wallet;
  private final BusinessGateway business;
  private final EngineEvents events;
  private final PageAdvance decide;
  private final Clock clock;
  private final int maxSteps;

  PageSteps(
      LeasedAdvance<PayFlow, AdvanceResult> loop,
      FlowWrites writes,
      WalletGateway wallet,
      BusinessGateway business,
      EngineEvents events,
      EngineConfig config,
      Clock clock,
      int maxSteps) {
    this.loop = loop;
    this.writes = writes;
    this.wallet = wallet;
    this.business = business;
    this.events = events;
    this.decide = new PageAdvance(config.unpaidTimeout(), config.deadlineGrace());
    this.clock = clock;
    this.maxSteps = maxSteps;
  }

  /**
   * Advances the page's flows (distinct, claimed under {@code trigger}'s lease); one result each.
   */
  List<AdvanceResult> advance(List<PayFlow> page, Trigger trigger) {
    List<AdvanceResult> results = new ArrayList<>(page.size());
    List<PayFlow> active = page;
    for (int round = 0; round < maxSteps && !active.isEmpty(); round++) {
      Optional<LeaseHold> hold = loop.hold(trigger);
      if (hold.isEmpty()) {
        // Race: the page's lease expired (a share that waited in a queue, a slow round): its rows
        // may be taken over, so each is claimed afresh from a fresh read.
        for (PayFlow flow : active) {
          results.add(loop.advance(flow.id(), Trigger.unclaimed(trigger.source())));
        }
        return results;
      }
      active = round(active, hold.get(), trigger, results);
    }
    Optional<LeaseHold> last = loop.hold(trigger);
    for (PayFlow flow : active) {
      // More rounds than any legal path has: hand over to a later trigger rather than spin.
      Outcome handover =
          last.isPresent()
              ? writes.reschedule(flow, last.get(), "STEP_LIMIT", false)
              : Outcome.BUSY;
      results.add(Advancer.settled(flow, handover));
    }
    return results;
  }

  /** One round: facts, decisions, the group write; returns the flows that take the next round. */
  private List<PayFlow> round(
      List<PayFlow> flows, LeaseHold hold, Trigger trigger, List<AdvanceResult> results) {
    List<FlowWrites.Move> moves = new ArrayList<>();
    for (PayFlow flow : flows) {
      if (!loop.holds(flow, hold)) {
        results.add(Advancer.settled(flow, Outcome.BUSY));
        continue;
      }
      Plan plan = plan(flow, hold);
      switch (plan.route()) {
        case GROUP -> {
          Decision.Move m = (Decision.Move) plan.decision();
          moves.add(new FlowWrites.Move(flow, m.to(), m.errorCode(), requestId(plan), klass(plan)));
        }
        case APPLY -> results.add(Advancer.settled(flow, apply(flow, plan.decision(), hold)));
        case ALONE ->
            results.add(
                loop.advanceCreated(flow, Trigger.claimed(trigger.source(), hold.lease(), flow)));
      }
    }
    List<PayFlow> next = new ArrayList<>();
    if (moves.isEmpty()) {
      return next;
    }
    List<Optional<PayFlow>> written = writes.moveAll(moves, hold);
    for (int i = 0; i < moves.size(); i++) {
      Optional<PayFlow> row = written.get(i);
      if (row.isEmpty()) {
        // Nothing written (handled by FlowWrites): the flow's holder or a later trigger goes on.
        results.add(Advancer.settled(moves.get(i).flow(), Outcome.BUSY));
      } else if (row.get().isTerminal()) {
        results.add(Advancer.settled(row.get(), Outcome.TERMINAL));
      } else {
        next.add(row.get());
      }
    }
    return next;
  }

  /** Gathers what the flow's step reads and decides it. */
  private Plan plan(PayFlow flow, LeaseHold hold) {
    return switch (PageAdvance.need(flow, hold.holder())) {
      case WALLET_QUERY -> {
        WalletResult query = wallet.queryPayment(flow.tradeOrderNo());
        events.externalCall("PAY_QUERY", query.certainty().name());
        yield decide.afterWalletQuery(flow, query, clock.instant());
      }
      case BUSINESS_FACT -> {
        if (BusinessDecision.mayCallBusiness(flow, clock.instant())) {
          BizCallResult answer =
              business.fulfil(flow.goal(), flow.tradeOrderNo(), flow.bizDeadline());
          events.externalCall("BIZ_CALL", answer.name());
        }
        BizFact fact = business.readFact(flow.goal());
        events.externalCall("BIZ_FACT", fact.state().name());
        yield decide.afterBusinessFact(flow, fact, clock.instant());
      }
      case ALONE, ENDED, HELD_ELSEWHERE -> Plan.alone();
    };
  }

  /**
   * A wait, an escalation or a freeze of one flow, fenced by the page's lease. A move never comes
   * here: it is written with the round's group.
   */
  private Outcome apply(PayFlow flow, Decision decision, LeaseHold hold) {
    if (decision instanceof Decision.Wait w) {
      return writes.reschedule(flow, hold, w.errorCode(), w.boundedByDeadline());
    }
    if (decision instanceof Decision.Escalate e) {
      return writes.escalate(flow, hold, e.errorCode());
    }
    if (decision instanceof Decision.Freeze f) {
      return writes.freeze(flow, hold, f.reason());
    }
    throw new IllegalStateException("a move is written with its round's group: " + decision);
  }

  private static String requestId(Plan plan) {
    return plan.result() == null ? null : plan.result().requestId();
  }

  private static String klass(Plan plan) {
    return plan.resultClass() != null ? plan.resultClass() : plan.result().certainty().name();
  }
}
