package dev.clearway.core.review;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.ReviewState;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.testing.Flows;
import org.junit.jupiter.api.Test;

/**
 * A held flow (frozen or escalated) takes exactly the resolutions the transition table allows from
 * its status; a flow the engine runs takes none of them.
 */
class HeldFlowCommandsTest {
  private static final CommandKind[] RESOLUTIONS = {
    CommandKind.CONFIRM_PAID,
    CommandKind.CONFIRM_NOT_PAID,
    CommandKind.CLOSE_UNPAID,
    CommandKind.CONFIRM_FLOW_REFUNDED
  };

  private static PayFlow held(FlowStatus status, ReviewState review) {
    PayFlow f = Flows.flow(status);
    return new PayFlow(
        f.id(),
        f.goal(),
        f.attemptNo(),
        f.tradeOrderNo(),
        f.refundOrderNo(),
        f.status(),
        f.version(),
        f.amount(),
        f.currency(),
        f.bizDeadline(),
        f.nextRetryTime(),
        f.retryCount(),
        f.lastErrorCode(),
        review,
        "CONTRADICTION",
        null,
        f.createdAt(),
        f.updatedAt());
  }

  @Test
  void eachHeldStatusTakesOnlyItsLegalResolutions() {
    for (ReviewState review : new ReviewState[] {ReviewState.FROZEN, ReviewState.ESCALATED}) {
      for (FlowStatus s : FlowStatus.values()) {
        for (CommandKind k : RESOLUTIONS) {
          CommandKind.Verdict v = k.check(held(s, review));
          if (v.isAllowed()) {
            assertThat(Transitions.isLegal(s, v.target().orElseThrow()))
                .as(k + " from " + s)
                .isTrue();
          }
        }
      }
      assertThat(CommandKind.CONFIRM_PAID.check(held(FlowStatus.PAYING, review)).target())
          .contains(FlowStatus.PAYED);
      assertThat(CommandKind.CONFIRM_NOT_PAID.check(held(FlowStatus.PAYING, review)).target())
          .contains(FlowStatus.PAY_FAIL);
      assertThat(CommandKind.CLOSE_UNPAID.check(held(FlowStatus.WAIT_PAY, review)).target())
          .contains(FlowStatus.CLOSED);
      assertThat(
              CommandKind.CONFIRM_FLOW_REFUNDED.check(held(FlowStatus.REFUNDING, review)).target())
          .contains(FlowStatus.REFUNDED);
      assertThat(CommandKind.CONFIRM_PAID.check(held(FlowStatus.PAYED, review)).isAllowed())
          .isFalse();
    }
  }

  @Test
  void aFlowTheEngineRunsTakesNoResolution() {
    for (FlowStatus s : FlowStatus.values()) {
      for (CommandKind k : RESOLUTIONS) {
        CommandKind.Verdict v = k.check(held(s, ReviewState.NONE));
        assertThat(v.isAllowed()).as(k + " from " + s).isFalse();
      }
    }
  }
}
