package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.reconciliation.decision.RepairCommand.OpenTicket;
import dev.clearway.core.reconciliation.decision.RepairCommand.Wait;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Lines nothing local knows, local successes the statement never showed, PSP adjustments. */
class StatementGapDifferencesTest {

  @Test
  void lineOfAnOrderMadeElsewhereNeedsAPerson() {
    LocalFact ours = Day.flow(30, BIZ_SUCCESS);
    StatementFact foreign =
        StatementFact.charge(
            "t_staging_1",
            "ak_staging_1",
            "psp_x",
            500,
            45,
            "EUR",
            Day.FROM.plusSeconds(60),
            Day.ACCOUNT);

    List<Difference> found =
        Run.day(new InMemoryFacts().local(ours), List.of(Day.chargeOf(ours), foreign));

    assertThat(found)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(DifferenceClass.UNKNOWN_STATEMENT_LINE);
              assertThat(d.statement()).isEqualTo(foreign);
              assertThat(d.local()).isNull();
              assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
            });
  }

  @Test
  void lineOfAnotherAccountIsRefusedNotMatched() {
    LocalFact ours = Day.flow(34, BIZ_SUCCESS);
    StatementFact line = Day.chargeOf(ours);
    StatementFact elsewhere =
        StatementFact.charge(
            line.tradeOrderNo(),
            line.attemptKey(),
            line.pspReference(),
            line.amountMinor(),
            line.feeMinor(),
            "EUR",
            line.at(),
            "psp-us-1");

    assertThatThrownBy(() -> Run.day(new InMemoryFacts().local(ours), List.of(elsewhere)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("psp-us-1");
  }

  @Test
  void payedFlowAbsentFromTheStatementWaitsForTheWindowThenNeedsAPerson() {
    LocalFact payed = Day.flow(31, PAYED);

    List<Difference> found = Run.day(new InMemoryFacts().local(payed), List.of());

    assertThat(found)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(DifferenceClass.MISSING_FROM_STATEMENT);
              assertThat(d.local()).isEqualTo(payed);
              assertThat(d.actionableAt()).isEqualTo(payed.updatedAt().plus(Duration.ofDays(2)));
              assertThat(Run.repair(d, Day.EARLY)).isInstanceOf(Wait.class);
              assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
            });
  }

  @Test
  void bizSuccessWithoutAnyChargeAtThePspNeedsAPerson() {
    LocalFact done = Day.flow(32, BIZ_SUCCESS);

    List<Difference> found = Run.day(new InMemoryFacts().local(done), List.of());

    assertThat(found)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(DifferenceClass.BIZ_SUCCESS_WITHOUT_CHARGE);
              assertThat(d.statement()).isNull();
              assertThat(Run.repair(d, Day.LATE))
                  .isEqualTo(new OpenTicket(d.kind(), d.detail() + " after the settlement window"));
            });
  }

  @Test
  void pspAdjustmentIsShownToAPerson() {
    LocalFact done = Day.flow(33, BIZ_SUCCESS);
    StatementFact charge = Day.chargeOf(done);
    StatementFact chargeback =
        new StatementFact(
            StatementKind.ADJUSTMENT,
            LineOutcome.SUCCEEDED,
            done.tradeOrderNo(),
            null,
            null,
            "psp_cb_1",
            -done.amountMinor(),
            15,
            "EUR",
            charge.at().plusSeconds(3600),
            Day.ACCOUNT);

    List<Difference> found = Run.day(new InMemoryFacts().local(done), List.of(charge, chargeback));

    assertThat(found)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.kind()).isEqualTo(DifferenceClass.ADJUSTMENT_TO_REVIEW);
              assertThat(d.local()).isEqualTo(done);
              assertThat(Run.repair(d, Day.LATE)).isInstanceOf(OpenTicket.class);
            });
  }
}
