package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.flow.domain.FlowStatus.PAY_FAIL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.decision.RepairCommand.ConfirmBusinessSuccess;
import dev.clearway.core.reconciliation.decision.RepairCommand.OpenTicket;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundLateCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundUnattributedCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleAttemptPaid;
import dev.clearway.core.reconciliation.decision.StatementEvidence;
import dev.clearway.core.reconciliation.domain.BusinessFact;
import dev.clearway.core.reconciliation.domain.BusinessStatus;
import dev.clearway.core.reconciliation.domain.CompensationState;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.RepairKind;
import dev.clearway.core.reconciliation.domain.StatementFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The differences a succeeded charge line can show, one scenario each, with their repair. */
class ChargeDifferencesTest {

  @Test
  void chargedWhileLocalPayingIsSettledPaidThroughTheAttempt() {
    LocalFact paying = Day.flow(1, PAYING);
    StatementFact line = Day.chargeOf(paying);
    Difference d = only(new InMemoryFacts().local(paying), line);

    assertThat(d.kind()).isEqualTo(DifferenceClass.CHARGED_LOCAL_PAYING);
    assertThat(d.statement()).isEqualTo(line);
    assertThat(d.local()).isEqualTo(paying);
    assertThat(Run.repair(d, Day.LATE))
        .isEqualTo(
            new SettleAttemptPaid(
                1,
                7,
                paying.attempt().id(),
                paying.attempt().version(),
                StatementEvidence.of(line)));
  }

  @Test
  void chargeOnAClosedOrderIsRefundedAsALateCharge() {
    LocalFact closed = Day.flow(2, CLOSED);
    StatementFact line = Day.chargeOf(closed);
    Difference d = only(new InMemoryFacts().local(closed), line);

    assertThat(d.kind()).isEqualTo(DifferenceClass.LATE_CHARGE);
    assertThat(d.local().flowStatus()).isEqualTo(CLOSED);
    assertThat(Run.repair(d, Day.LATE))
        .isEqualTo(
            new RefundLateCharge(
                2, closed.tradeOrderNo(), 1002, "EUR", StatementEvidence.of(line)));
  }

  @Test
  void chargeOnAFailedOrderWithARefundUnderWayIsNoDifference() {
    LocalFact failed = Day.withCompensation(Day.flow(3, PAY_FAIL), CompensationState.OPEN);

    assertThat(Run.day(new InMemoryFacts().local(failed), List.of(Day.chargeOf(failed)))).isEmpty();
  }

  @Test
  void businessNamingThisTradeOrderConfirmsThePayedFlow() {
    LocalFact payed = Day.flow(4, PAYED);
    BusinessFact done = new BusinessFact(payed.goal(), BusinessStatus.DONE, payed.tradeOrderNo());
    Difference d = only(new InMemoryFacts().local(payed).business(done), Day.chargeOf(payed));

    assertThat(d.kind()).isEqualTo(DifferenceClass.BUSINESS_DONE_UNCONFIRMED);
    assertThat(d.business()).isEqualTo(done);
    assertThat(Run.repair(d, Day.LATE))
        .isEqualTo(new ConfirmBusinessSuccess(4, 7, payed.tradeOrderNo()));
  }

  @Test
  void businessDoneWithoutAttributionNeedsAPerson() {
    LocalFact payed = Day.flow(5, PAYED);
    BusinessFact done = new BusinessFact(payed.goal(), BusinessStatus.DONE, null);
    Difference d = only(new InMemoryFacts().local(payed).business(done), Day.chargeOf(payed));

    assertThat(d.kind()).isEqualTo(DifferenceClass.ATTRIBUTION_UNCLEAR);
    assertThat(d.kind().repairKind()).isEqualTo(RepairKind.NEEDS_PERSON);
    assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
  }

  @Test
  void secondChargedAttemptOfAFulfilledGoalIsRefundedThroughItsCompensation() {
    LocalFact used = Day.flow(6, BIZ_SUCCESS);
    LocalFact unused = Day.flow(7, used.goal(), PAYED);
    BusinessFact done = new BusinessFact(used.goal(), BusinessStatus.DONE, used.tradeOrderNo());
    InMemoryFacts facts = new InMemoryFacts().local(used).local(unused).business(done);

    List<Difference> found = Run.day(facts, List.of(Day.chargeOf(used), Day.chargeOf(unused)));

    assertThat(found)
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.DUPLICATE_CHARGE);
    Difference d = found.get(0);
    assertThat(d.local()).isEqualTo(unused);
    assertThat(d.sibling()).isEqualTo(used);
    assertThat(Run.repair(d, Day.LATE))
        .isEqualTo(
            new RefundUnattributedCharge(
                7, 7, unused.tradeOrderNo(), unused.flowRefundOrderNo(), used.tradeOrderNo()));
  }

  @Test
  void chargedAmountOtherThanTheLocalOneNeedsAPerson() {
    LocalFact done = Day.flow(8, BIZ_SUCCESS);
    StatementFact line = Day.chargeOf(done);
    StatementFact more =
        StatementFact.charge(
            line.tradeOrderNo(),
            line.attemptKey(),
            line.pspReference(),
            line.amountMinor() + 100,
            line.feeMinor(),
            "EUR",
            line.at(),
            line.account());
    Difference d = only(new InMemoryFacts().local(done), more);

    assertThat(d.kind()).isEqualTo(DifferenceClass.AMOUNT_MISMATCH);
    assertThat(d.detail()).contains("1108").contains("1008");
    assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
  }

  @Test
  void chargedCurrencyOtherThanTheLocalOneNeedsAPerson() {
    LocalFact done = Day.flow(9, BIZ_SUCCESS);
    StatementFact line = Day.chargeOf(done);
    StatementFact usd =
        StatementFact.charge(
            line.tradeOrderNo(),
            line.attemptKey(),
            line.pspReference(),
            line.amountMinor(),
            line.feeMinor(),
            "USD",
            line.at(),
            line.account());
    Difference d = only(new InMemoryFacts().local(done), usd);

    assertThat(d.kind()).isEqualTo(DifferenceClass.CURRENCY_MISMATCH);
    assertThat(d.statement().currency()).isEqualTo("USD");
    assertThat(d.local().currency()).isEqualTo("EUR");
    assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
  }

  @Test
  void feeOtherThanTheTermsGoesToFinance() {
    LocalFact done = Day.flow(10, BIZ_SUCCESS);
    StatementFact line = Day.chargeOf(done);
    StatementFact dearer =
        StatementFact.charge(
            line.tradeOrderNo(),
            line.attemptKey(),
            line.pspReference(),
            line.amountMinor(),
            line.feeMinor() + 5,
            "EUR",
            line.at(),
            line.account());
    Difference d = only(new InMemoryFacts().local(done), dearer);

    assertThat(d.kind()).isEqualTo(DifferenceClass.FEE_MISMATCH);
    assertThat(d.detail()).isEqualTo("fee 64, terms say 59");
    assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
  }

  @Test
  void chargeMatchedByTradeOrderNoWhenThePspDroppedTheAttemptKey() {
    LocalFact paying = Day.flow(11, PAYING);
    StatementFact line = Day.chargeOf(paying);
    StatementFact noKey =
        StatementFact.charge(
            line.tradeOrderNo(),
            null,
            line.pspReference(),
            line.amountMinor(),
            line.feeMinor(),
            "EUR",
            line.at(),
            line.account());

    assertThat(only(new InMemoryFacts().local(paying), noKey).local()).isEqualTo(paying);
  }

  private static Difference only(InMemoryFacts facts, StatementFact line) {
    List<Difference> found = Run.day(facts, List.of(line));
    assertThat(found).hasSize(1);
    return found.get(0);
  }
}
