package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.decision.RepairCommand.OpenTicket;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleFlowRefunded;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleRefundSucceeded;
import dev.clearway.core.reconciliation.decision.RepairCommand.Wait;
import dev.clearway.core.reconciliation.decision.StatementEvidence;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The differences of refunds, one scenario each, with their repair. */
class RefundDifferencesTest {

  @Test
  void pspRefundSucceededWhileTheRefundOrderIsProcessingSettlesIt() {
    LocalFact view = Day.withRefund(Day.flow(20, BIZ_SUCCESS), RefundStatus.PROCESSING);
    StatementFact refund = Day.refundOf(view, LineOutcome.SUCCEEDED);
    Difference d = only(view, List.of(Day.chargeOf(view), refund));

    assertThat(d.kind()).isEqualTo(DifferenceClass.REFUND_SETTLED_LOCAL_PENDING);
    assertThat(d.statement()).isEqualTo(refund);
    assertThat(Run.repair(d, Day.LATE))
        .isEqualTo(
            new SettleRefundSucceeded(
                view.refund().id(), view.refund().version(), StatementEvidence.of(refund)));
  }

  @Test
  void pspRefundSucceededWhileTheFlowIsRefundingSettlesTheFlow() {
    LocalFact refunding = Day.flow(21, REFUNDING);
    StatementFact refund = Day.refundOf(refunding, LineOutcome.SUCCEEDED);
    Difference d = only(refunding, List.of(Day.chargeOf(refunding), refund));

    assertThat(d.kind()).isEqualTo(DifferenceClass.REFUND_SETTLED_LOCAL_PENDING);
    assertThat(Run.repair(d, Day.LATE))
        .isEqualTo(new SettleFlowRefunded(21, 7, StatementEvidence.of(refund)));
  }

  @Test
  void pspRefundSucceededOnARefundOrderLocallyFailedIsATicketNeverAnOverwrite() {
    LocalFact view = Day.withRefund(Day.flow(22, BIZ_SUCCESS), RefundStatus.FAIL);
    Difference d =
        only(view, List.of(Day.chargeOf(view), Day.refundOf(view, LineOutcome.SUCCEEDED)));

    assertThat(d.kind()).isEqualTo(DifferenceClass.REFUND_SETTLED_LOCAL_PENDING);
    assertThat(Run.repair(d, Day.LATE))
        .isEqualTo(
            new OpenTicket(
                DifferenceClass.REFUND_SETTLED_LOCAL_PENDING,
                "PSP refunded, local refund FAIL cannot become SUCCESS"));
  }

  @Test
  void localRefundedWhilePspStillProcessingWaitsThenNeedsAPerson() {
    LocalFact refunded = Day.flow(23, REFUNDED);
    StatementFact processing = Day.refundOf(refunded, LineOutcome.PROCESSING);
    Difference d = only(refunded, List.of(Day.chargeOf(refunded), processing));

    assertThat(d.kind()).isEqualTo(DifferenceClass.REFUND_NOT_AT_PSP);
    assertThat(d.statement()).isEqualTo(processing);
    assertThat(d.actionableAt()).isEqualTo(refunded.updatedAt().plus(Duration.ofDays(2)));
    assertThat(Run.repair(d, Day.EARLY)).isInstanceOf(Wait.class);
    assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
  }

  @Test
  void localRefundedAndAbsentFromTheStatementWaitsThenNeedsAPerson() {
    LocalFact view = Day.withRefund(Day.flow(24, BIZ_SUCCESS), RefundStatus.SUCCESS);
    Difference d = only(view, List.of(Day.chargeOf(view)));

    assertThat(d.kind()).isEqualTo(DifferenceClass.REFUND_NOT_AT_PSP);
    assertThat(d.statement()).isNull();
    assertThat(d.local()).isEqualTo(view);
    assertThat(Run.repair(d, Day.EARLY))
        .isEqualTo(new Wait(d.kind(), d.actionableAt(), d.detail()));
    assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
  }

  private static Difference only(LocalFact local, List<StatementFact> lines) {
    List<Difference> found = Run.day(new InMemoryFacts().local(local), lines);
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
