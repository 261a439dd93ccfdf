package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.decision.BusinessDecision;
import dev.clearway.core.flow.decision.Decision;
import dev.clearway.core.flow.decision.PaymentDecision;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.WalletResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The pure part of moving a claimed page of flows together: for each flow whose lease this advance
 * holds, which facts its next step reads, and, from the facts gathered for it, its next transition.
 *
 * <p>Rules: only a step that reads facts and then moves the flow (PAYING after the wallet's query,
 * PAYED after the business fact) is written with the page's other moves in one group; a step whose
 * decision is to wait, escalate or freeze is applied to its flow alone; a step that needs a call
 * with a side effect after its facts (re-sending or closing an order, a refund, the start of a
 * payment) is left to the one-flow path, which reads the facts again. A flow this advance does not
 * hold, or that takes no step (terminal, frozen), is left as it is.
 */
public final class PageAdvance {

  /** What a flow of the page needs before its next step is decided. */
  public enum Need {
    /** Terminal or frozen: no step. */
    ENDED,
    /** Another lease holds it (taken over): left to its holder, no call from here. */
    HELD_ELSEWHERE,
    /** PAYING: the wallet's answer to a query of its order. */
    WALLET_QUERY,
    /** PAYED: the business call (while it may be made), then the business fact. */
    BUSINESS_FACT,
    /** Any other step: the one-flow path. */
    ALONE
  }

  /** How a decided step is carried out. */
  public enum Route {
    /** A transition written with the page's other transitions in one group. */
    GROUP,
    /** A wait, escalation or freeze, written for this flow alone. */
    APPLY,
    /** The one-flow path from this row (a call with a side effect comes next). */
    ALONE
  }

  /**
   * A flow's decided step.
   *
   * @param result the wallet answer the decision rests on, or null (business facts)
   * @param resultClass the history's result class when {@code result} is null
   */
  public record Plan(Route route, Decision decision, WalletResult result, String resultClass) {
    public Plan {
      Objects.requireNonNull(route);
      if (route == Route.GROUP && !(decision instanceof Decision.Move)) {
        throw new IllegalArgumentException("only a transition is written in a group");
      }
    }

    static Plan alone() {
      return new Plan(Route.ALONE, null, null, null);
    }
  }

  private final Duration unpaidTimeout;
  private final Duration deadlineGrace;

  public PageAdvance(Duration unpaidTimeout, Duration deadlineGrace) {
    this.unpaidTimeout = unpaidTimeout;
    this.deadlineGrace = deadlineGrace;
  }

  /**
   * What {@code flow} needs before its step, for the advance holding lease token {@code holder}.
   */
  public static Need need(PayFlow flow, String holder) {
    if (flow.isTerminal() || flow.isFrozen()) {
      return Need.ENDED;
    }
    if (!holder.equals(flow.leaseOwner())) {
      return Need.HELD_ELSEWHERE;
    }
    return switch (flow.status()) {
      case PAYING -> Need.WALLET_QUERY;
      case PAYED -> Need.BUSINESS_FACT;
      case WAIT_PAY, REFUNDING -> Need.ALONE;
      case PAY_FAIL, BIZ_SUCCESS, REFUNDED, CLOSED -> Need.ENDED;
    };
  }

  /** A PAYING flow's step from the wallet's answer to the query of its order. */
  public Plan afterWalletQuery(PayFlow flow, WalletResult query, Instant now) {
    return switch (PaymentDecision.afterQuery(flow, query, now, unpaidTimeout)) {
      case DECIDE -> {
        Decision decision = PaymentDecision.onPaymentResult(query);
        yield new Plan(routeOf(decision), decision, query, null);
      }
      case RESEND_SAME_ORDER, CLOSE_ORDER -> Plan.alone();
    };
  }

  /** A PAYED flow's step from the business fact read after the business call. */
  public Plan afterBusinessFact(PayFlow flow, BizFact fact, Instant now) {
    Decision decision = BusinessDecision.decide(flow, fact, now, deadlineGrace);
    if (BusinessDecision.isRefund(decision)) {
      // A refund reads the fact again right before it commits, then sends the refund: alone.
      return Plan.alone();
    }
    return new Plan(routeOf(decision), decision, null, "BIZ_FACT");
  }

  private static Route routeOf(Decision decision) {
    // Decision is sealed: a move is grouped; a wait, an escalation or a freeze is applied alone.
    return decision instanceof Decision.Move ? Route.GROUP : Route.APPLY;
  }
}
