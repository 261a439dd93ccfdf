package dev.clearway.core.review;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import java.util.Optional;

/**
 * What a person may ask the engine to do. Each command goes through the transition table and the
 * CAS like any automatic step; none sets a status directly.
 */
public enum CommandKind {
  /** The business was granted to this order (evidence attached): PAYED to BIZ_SUCCESS. */
  CONFIRM_BIZ_SUCCESS,
  /** The charge must go back (evidence attached): PAYED to REFUNDING, then the usual refund. */
  FORCE_REFUND,
  /** Clear the review mark and let automatic retries run again, from now. */
  RESUME,
  /**
   * A flow a person holds (frozen or escalated) was charged, on evidence: PAYING to PAYED, then the
   * business step as usual.
   */
  CONFIRM_PAID,
  /** A flow a person holds was definitely not charged, on evidence: PAYING to PAY_FAIL. */
  CONFIRM_NOT_PAID,
  /** A flow a person holds never started a payment: WAIT_PAY to CLOSED. */
  CLOSE_UNPAID,
  /** A flow a person holds had its compensation refund executed: REFUNDING to REFUNDED. */
  CONFIRM_FLOW_REFUNDED;

  /**
   * The status the command moves the flow to (the same status for RESUME), or a refusal reason when
   * the flow is not in a state where the command is legal.
   */
  public Verdict check(PayFlow flow) {
    return switch (this) {
      case CONFIRM_BIZ_SUCCESS -> move(flow, FlowStatus.BIZ_SUCCESS);
      case FORCE_REFUND -> move(flow, FlowStatus.REFUNDING);
      case RESUME ->
          flow.isTerminal()
              ? Verdict.refused("the flow is terminal (" + flow.status() + ")")
              : !flow.reviewState().needsPerson()
                  ? Verdict.refused("the flow is not under review")
                  : Verdict.allowed(flow.status());
      case CONFIRM_PAID -> held(flow, FlowStatus.PAYED);
      case CONFIRM_NOT_PAID -> held(flow, FlowStatus.PAY_FAIL);
      case CLOSE_UNPAID -> held(flow, FlowStatus.CLOSED);
      case CONFIRM_FLOW_REFUNDED -> held(flow, FlowStatus.REFUNDED);
    };
  }

  /**
   * A resolution that only a person holding the flow may take: the engine decides these edges
   * itself while it runs, so a person may take them only once it stopped (frozen) or gave up
   * (escalated).
   */
  private static Verdict held(PayFlow flow, FlowStatus to) {
    return flow.reviewState().needsPerson()
        ? move(flow, to)
        : Verdict.refused("the flow is not under review: the engine decides this step");
  }

  private static Verdict move(PayFlow flow, FlowStatus to) {
    return Transitions.isLegal(flow.status(), to)
        ? Verdict.allowed(to)
        : Verdict.refused(flow.status() + " cannot move to " + to);
  }

  /** Allowed with a target status, or refused with a reason. */
  public record Verdict(Optional<FlowStatus> target, String refusal) {
    static Verdict allowed(FlowStatus to) {
      return new Verdict(Optional.of(to), null);
    }

    static Verdict refused(String why) {
      return new Verdict(Optional.empty(), why);
    }

    public boolean isAllowed() {
      return target.isPresent();
    }
  }
}
