package dev.clearway.core.flow.decision;

import static dev.clearway.core.testing.Flows.DEADLINE;
import static dev.clearway.core.testing.Flows.NUMBERS;
import static dev.clearway.core.testing.Flows.cancelRequested;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.BizFact.BizState;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A goal its owner cancelled is never fulfilled: the business is not called, and a charge that
 * landed anyway is refunded at once; but a business fact already done for this order still wins.
 */
class CancelledGoalBusinessTest {
  private static final Duration GRACE = Duration.ofSeconds(5);
  private static final PayFlow CANCELLED = cancelRequested(FlowStatus.PAYED);
  private static final Instant[] TIMES = {
    DEADLINE.minus(Duration.ofMinutes(30)), DEADLINE, DEADLINE.plus(Duration.ofDays(1))
  };

  @Test
  void theBusinessIsNeverCalledForACancelledGoal() {
    for (Instant now : TIMES) {
      assertThat(BusinessDecision.mayCallBusiness(CANCELLED, now)).as("%s", now).isFalse();
    }
  }

  @Test
  void aChargeForACancelledGoalIsRefundedAtOnceEvenLongBeforeTheDeadline() {
    for (Instant now : TIMES) {
      Decision d = BusinessDecision.decide(CANCELLED, BizFact.notDone(), now, GRACE);
      assertThat(d).as("%s", now).isEqualTo(new Decision.Move(FlowStatus.REFUNDING, "CANCELLED"));
      assertThat(BusinessDecision.isRefund(d)).isTrue();
    }
  }

  @Test
  void aBusinessAlreadyDoneForThisOrderIsASuccessDespiteTheCancelRequest() {
    assertThat(
            BusinessDecision.decide(
                CANCELLED, BizFact.done(NUMBERS.tradeOrderNo()), DEADLINE.minusSeconds(60), GRACE))
        .isEqualTo(new Decision.Move(FlowStatus.BIZ_SUCCESS, null));
  }

  @Test
  void contradictionsAndUnreadableFactsOfACancelledGoalAreNotRefundedBlindly() {
    Instant now = DEADLINE.minusSeconds(60);
    assertThat(
            BusinessDecision.decide(
                CANCELLED,
                new BizFact(BizState.NOT_DONE, NUMBERS.tradeOrderNo(), null),
                now,
                GRACE))
        .isEqualTo(new Decision.Freeze("BIZ_ATTRIBUTED_BUT_NOT_DONE"));
    assertThat(BusinessDecision.decide(CANCELLED, BizFact.unreadable("HTTP_503"), now, GRACE))
        .isEqualTo(new Decision.Wait("HTTP_503", false));
  }
}
