package dev.clearway.core.flow.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.fact.BizFact;
import java.time.Duration;
import java.time.Instant;

/**
 * The business stage. Whatever the business call answered, the decision reads only the business
 * fact and its attribution:
 *
 * <table>
 *   <tr><th>business fact</th><th>decision</th></tr>
 *   <tr><td>done, attributed to this order</td><td>BIZ_SUCCESS</td></tr>
 *   <tr><td>done, attributed to another order</td><td>refund</td></tr>
 *   <tr><td>not done, deadline ahead</td><td>wait and retry</td></tr>
 *   <tr><td>not done, deadline (plus grace) passed</td><td>refund</td></tr>
 *   <tr><td>not done, goal cancelled</td><td>refund at once (the business is never called)</td></tr>
 *   <tr><td>done without attribution, or attribution without done</td><td>freeze</td></tr>
 *   <tr><td>unreadable</td><td>wait, escalate after the budget; never refund</td></tr>
 * </table>
 */
public final class BusinessDecision {

  private BusinessDecision() {}

  /**
   * Whether the business call may still be made: never at or after the deadline, and never for a
   * goal whose owner cancelled it (the charge that landed anyway is refunded).
   */
  public static boolean mayCallBusiness(PayFlow flow, Instant now) {
    return now.isBefore(flow.bizDeadline()) && !flow.isCancelRequested();
  }

  public static Decision decide(PayFlow flow, BizFact fact, Instant now, Duration grace) {
    String attributed = fact.attributedOrderNo();
    return switch (fact.state()) {
      case UNREADABLE ->
          Decision.waitFor(PaymentDecision.orDefault(fact.errorCode(), "BIZ_FACT_UNREADABLE"));
      case DONE -> {
        if (attributed == null) {
          yield new Decision.Freeze("BIZ_DONE_WITHOUT_ATTRIBUTION");
        }
        yield attributed.equals(flow.tradeOrderNo())
            ? Decision.move(FlowStatus.BIZ_SUCCESS)
            : Decision.move(FlowStatus.REFUNDING, "BIZ_DONE_BY_OTHER_ORDER");
      }
      case NOT_DONE -> {
        if (attributed != null) {
          yield new Decision.Freeze("BIZ_ATTRIBUTED_BUT_NOT_DONE");
        }
        if (flow.isCancelRequested()) {
          yield Decision.move(FlowStatus.REFUNDING, "CANCELLED");
        }
        yield now.isBefore(flow.bizDeadline().plus(grace))
            ? Decision.waitForDeadline("BIZ_NOT_DONE")
            : Decision.move(FlowStatus.REFUNDING, "BIZ_DEADLINE_PASSED");
      }
    };
  }

  public static boolean isRefund(Decision decision) {
    return decision instanceof Decision.Move m && m.to() == FlowStatus.REFUNDING;
  }
}
