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
  RESUME;

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
    };
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
