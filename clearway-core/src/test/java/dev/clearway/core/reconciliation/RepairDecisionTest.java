package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;
import static dev.clearway.core.flow.domain.FlowStatus.WAIT_PAY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.reconciliation.decision.RepairCommand;
import dev.clearway.core.reconciliation.decision.RepairCommand.NoRepair;
import dev.clearway.core.reconciliation.decision.RepairCommand.OpenTicket;
import dev.clearway.core.reconciliation.decision.RepairDecision;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.BusinessStatus;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The repair is decided on the row read again: an automatic command only from the legal prior
 * state, nothing when the row's own engine got there first, a ticket otherwise.
 */
class RepairDecisionTest {

  @ParameterizedTest
  @EnumSource(
      value = FlowStatus.class,
      names = {"PAYED", "BIZ_SUCCESS", "REFUNDING", "REFUNDED"})
  void settledPaidMeanwhileNeedsNoRepair(FlowStatus meanwhile) {
    Difference d = found(new InMemoryFacts().local(Day.flow(1, PAYING)), 1);

    assertThat(RepairDecision.decide(d, d.local().withFlowStatus(meanwhile), Day.LATE))
        .isInstanceOf(NoRepair.class);
  }

  @Test
  void flowNeverSentCannotBeSettledPaidAndGoesToAPerson() {
    Difference d = found(new InMemoryFacts().local(Day.flow(2, WAIT_PAY)), 2);

    assertThat(d.kind()).isEqualTo(DifferenceClass.CHARGED_LOCAL_PAYING);
    RepairCommand repair = RepairDecision.decide(d, d.local(), Day.LATE);
    assertThat(repair).isInstanceOf(OpenTicket.class);
    assertThat(((OpenTicket) repair).reason()).contains("no legal repair from flow WAIT_PAY");
  }

  @Test
  void lateChargeWhoseRefundWasOpenedMeanwhileNeedsNoRepair() {
    Difference d = found(new InMemoryFacts().local(Day.flow(3, CLOSED)), 3);

    LocalFact meanwhile = Day.withCompensation(d.local(), CompensationState.OPEN);
    assertThat(RepairDecision.decide(d, meanwhile, Day.LATE)).isInstanceOf(NoRepair.class);
  }

  @Test
  void lateChargeOnAFlowThatIsNoLongerEndedIsATicket() {
    Difference d = found(new InMemoryFacts().local(Day.flow(4, CLOSED)), 4);

    assertThat(RepairDecision.decide(d, d.local().withFlowStatus(PAYED), Day.LATE))
        .isInstanceOf(OpenTicket.class);
  }

  @Test
  void duplicateWhoseFlowMovedOnIsATicketNotARefund() {
    LocalFact used = Day.flow(5, BIZ_SUCCESS);
    LocalFact unused = Day.flow(6, used.goal(), PAYED);
    InMemoryFacts facts =
        new InMemoryFacts()
            .local(used)
            .local(unused)
            .business(new BusinessFact(used.goal(), BusinessStatus.DONE, used.tradeOrderNo()));
    List<Difference> found = Run.day(facts, List.of(Day.chargeOf(used), Day.chargeOf(unused)));
    Difference d = found.get(0);

    assertThat(d.kind()).isEqualTo(DifferenceClass.DUPLICATE_CHARGE);
    assertThat(RepairDecision.decide(d, unused.withFlowStatus(REFUNDING), Day.LATE))
        .isInstanceOf(OpenTicket.class);
  }

  @Test
  void automaticRepairWithoutALocalRowIsATicket() {
    Difference d = found(new InMemoryFacts().local(Day.flow(7, PAYING)), 7);

    assertThat(RepairDecision.decide(d, null, Day.LATE))
        .isEqualTo(new OpenTicket(DifferenceClass.CHARGED_LOCAL_PAYING, "the local row is gone"));
  }

  private static Difference found(InMemoryFacts facts, long flowId) {
    LocalFact local = facts.byTradeOrderNo(Day.flow(flowId, PAYING).tradeOrderNo()).orElseThrow();
    List<Difference> found = Run.day(facts, List.of(Day.chargeOf(local)));
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
