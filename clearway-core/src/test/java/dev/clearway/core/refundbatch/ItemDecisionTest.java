package dev.clearway.core.refundbatch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.refundbatch.decision.ItemDecision;
import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import org.junit.jupiter.api.Test;

class ItemDecisionTest {

  @Test
  void whatIsLeftToRefundDecidesBetweenAlreadyRefundedAndAPerson() {
    assertThat(ItemDecision.decide(new CreateOutcome.ExceedsPayment(900, 900)).outcome())
        .isEqualTo(ItemOutcome.ALREADY_REFUNDED);
    assertThat(ItemDecision.decide(new CreateOutcome.ExceedsPayment(900, 300)).outcome())
        .isEqualTo(ItemOutcome.NEEDS_PERSON);
  }

  @Test
  void aPaymentThatIsNotBizSuccessIsAlreadyRefundedOnlyWhenTheCompensationRefundedIt() {
    assertThat(ItemDecision.decide(new CreateOutcome.NotAllowed(FlowStatus.REFUNDED)).outcome())
        .isEqualTo(ItemOutcome.ALREADY_REFUNDED);
    assertThat(ItemDecision.decide(new CreateOutcome.NotAllowed(FlowStatus.PAYED)).outcome())
        .isEqualTo(ItemOutcome.FAILED);
    assertThat(ItemDecision.decide(new CreateOutcome.FlowNotFound()).outcome())
        .isEqualTo(ItemOutcome.FAILED);
    assertThat(ItemDecision.decide(new CreateOutcome.KeyReused()).outcome())
        .isEqualTo(ItemOutcome.NEEDS_PERSON);
  }

  @Test
  void terminalBatchStatesLeadNowhere() {
    for (BatchState s : BatchState.values()) {
      assertThat(s.next().isEmpty()).isEqualTo(s.isTerminal());
    }
    assertThat(BatchState.RUNNING.canMoveTo(BatchState.PAUSED)).isTrue();
    assertThat(BatchState.PAUSED.canMoveTo(BatchState.RUNNING)).isTrue();
    assertThat(BatchState.PROPOSED.canMoveTo(BatchState.RUNNING)).isFalse();
  }
}
