package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.AMOUNT_MISMATCH;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.BIZ_SUCCESS_WITHOUT_CHARGE;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.CHARGED_LOCAL_PAYING;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.LATE_CHARGE;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.UNKNOWN_STATEMENT_LINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.decision.RepairCommand;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundLateCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleAttemptPaid;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.DifferenceState;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class RepairPassTest {
  final InMemoryRecon recon = new InMemoryRecon();
  final List<RepairCommand> applied = new ArrayList<>();
  Function<RepairCommand, RepairOutcome> answer = c -> RepairOutcome.applied("done");
  final Clock clock = Clock.fixed(Day.LATE, ZoneOffset.UTC);

  RepairPass pass() {
    return new RepairPass(
        recon.ports(),
        (command, now) -> {
          applied.add(command);
          return answer.apply(command);
        },
        ReconciliationJobTest.CONFIG,
        clock);
  }

  LocalFact local(LocalFact f) {
    recon.facts.local(f);
    return f;
  }

  void reconcile(StatementFact... lines) {
    recon.file(1, ReconciliationJobTest.DAY, lines);
    new ReconciliationJob(recon.ports(), ReconciliationJobTest.CONFIG, clock)
        .run(Day.ACCOUNT, ReconciliationJobTest.DAY);
  }

  DifferenceState state(DifferenceClass kind) {
    return recon.byKind(kind).state();
  }

  @Test
  void confirmedMatchesAreRepairedAndTheRestGoToAPerson() {
    LocalFact paying = local(Day.flow(1, PAYING));
    LocalFact closed = local(Day.flow(2, CLOSED));
    LocalFact off = local(Day.flow(3, BIZ_SUCCESS));
    local(Day.flow(5, BIZ_SUCCESS));
    reconcile(
        Day.chargeOf(paying),
        Day.chargeOf(closed),
        ReconciliationJobTest.charge(off, off.amountMinor() + 2, 30),
        StatementFact.charge("T-x", null, "psp_x", 5, 0, Day.EUR, Day.FROM, Day.ACCOUNT));

    RepairPass.Round round = pass().runUntilIdle(5);

    assertThat(round.claimed()).isEqualTo(5);
    assertThat(round.autoRepaired()).isEqualTo(2);
    assertThat(round.tickets()).isEqualTo(3);
    assertThat(state(CHARGED_LOCAL_PAYING)).isEqualTo(DifferenceState.RESOLVED);
    assertThat(state(LATE_CHARGE)).isEqualTo(DifferenceState.RESOLVED);
    assertThat(state(AMOUNT_MISMATCH)).isEqualTo(DifferenceState.NEEDS_PERSON);
    assertThat(state(UNKNOWN_STATEMENT_LINE)).isEqualTo(DifferenceState.NEEDS_PERSON);
    assertThat(state(BIZ_SUCCESS_WITHOUT_CHARGE)).isEqualTo(DifferenceState.NEEDS_PERSON);
    assertThat(applied).hasSize(2);
    assertThat(applied).hasAtLeastOneElementOfType(SettleAttemptPaid.class);
    assertThat(applied).hasAtLeastOneElementOfType(RefundLateCharge.class);
    SettleAttemptPaid settle =
        applied.stream()
            .filter(SettleAttemptPaid.class::isInstance)
            .map(SettleAttemptPaid.class::cast)
            .findFirst()
            .orElseThrow();
    assertThat(settle.attemptId()).isEqualTo(paying.attempt().id());
    assertThat(settle.attemptVersion()).isEqualTo(paying.attempt().version());
    assertThat(recon.history)
        .contains(
            "CHARGED_LOCAL_PAYING OPEN->AUTO_REPAIRING: repairing: SettleAttemptPaid",
            "CHARGED_LOCAL_PAYING AUTO_REPAIRING->RESOLVED: done");
    assertThat(recon.events).contains("ticket AMOUNT_MISMATCH");
    assertThat(pass().runOnce().idle()).isTrue();
  }

  @Test
  void aLostRaceIsRetriedAfterItsDelayAndARefusalGoesToAPerson() {
    LocalFact paying = local(Day.flow(1, PAYING));
    LocalFact closed = local(Day.flow(2, CLOSED));
    reconcile(Day.chargeOf(paying), Day.chargeOf(closed));
    answer =
        c ->
            c instanceof SettleAttemptPaid
                ? RepairOutcome.lostRace("0 rows")
                : RepairOutcome.refused("flow moved");

    RepairPass.Round round = pass().runOnce();

    assertThat(round.retrying()).isEqualTo(1);
    assertThat(state(CHARGED_LOCAL_PAYING)).isEqualTo(DifferenceState.AUTO_REPAIRING);
    assertThat(recon.byKind(CHARGED_LOCAL_PAYING).actionableAt())
        .isEqualTo(Day.LATE.plus(Duration.ofMinutes(1)));
    assertThat(state(LATE_CHARGE)).isEqualTo(DifferenceState.NEEDS_PERSON);
    assertThat(pass().runOnce().idle()).isTrue();

    answer = c -> RepairOutcome.alreadyDone("already PAYED");
    RepairPass later =
        new RepairPass(
            recon.ports(),
            (command, now) -> answer.apply(command),
            ReconciliationJobTest.CONFIG,
            Clock.offset(clock, Duration.ofMinutes(2)));
    later.runOnce();

    assertThat(state(CHARGED_LOCAL_PAYING)).isEqualTo(DifferenceState.RESOLVED);
  }

  @Test
  void aSuggestedMatchIsNeverRepairedAutomatically() {
    LocalFact paying = local(Day.flow(1, PAYING));
    LocalFact other = local(Day.flow(2, BIZ_SUCCESS));
    reconcile(
        StatementFact.charge(
            other.tradeOrderNo(),
            paying.attemptKey(),
            "psp_1",
            paying.amountMinor(),
            Day.TERMS.expectedChargeFee(paying.amountMinor()),
            Day.EUR,
            paying.updatedAt(),
            Day.ACCOUNT),
        Day.chargeOf(other));

    pass().runOnce();

    assertThat(state(CHARGED_LOCAL_PAYING)).isEqualTo(DifferenceState.NEEDS_PERSON);
    assertThat(applied).isEmpty();
  }

  @Test
  void aMissingChargeThatANeighbouringFileNowShowsIsResolved() {
    LocalFact late = local(Day.flow(5, BIZ_SUCCESS));
    reconcile();
    assertThat(state(BIZ_SUCCESS_WITHOUT_CHARGE)).isEqualTo(DifferenceState.OPEN);
    recon.file(2, ReconciliationJobTest.DAY.plusDays(1), Day.chargeOf(late));

    RepairPass.Round round = pass().runOnce();

    assertThat(round.resolved()).isEqualTo(1);
    assertThat(state(BIZ_SUCCESS_WITHOUT_CHARGE)).isEqualTo(DifferenceState.RESOLVED);
    assertThat(applied).isEmpty();
  }
}
