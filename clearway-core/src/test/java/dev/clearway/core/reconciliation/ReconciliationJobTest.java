package dev.clearway.core.reconciliation;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.CLOSED;
import static dev.clearway.core.flow.domain.FlowStatus.PAYING;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.ADJUSTMENT_TO_REVIEW;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.AMOUNT_MISMATCH;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.BIZ_SUCCESS_WITHOUT_CHARGE;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.CHARGED_LOCAL_PAYING;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.FEE_MISMATCH;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.LATE_CHARGE;
import static dev.clearway.core.reconciliation.domain.DifferenceClass.UNKNOWN_STATEMENT_LINE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.reconciliation.decision.Tolerances;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.LocalRefund;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.ReconRunStatus;
import dev.clearway.core.reconciliation.domain.RecordedDifference;
import dev.clearway.core.reconciliation.domain.SettlementStatus;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.reconciliation.engine.ReconConfig;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.ReconciliationJob.Outcome;
import dev.clearway.core.reconciliation.engine.ReconciliationJob.Result;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class ReconciliationJobTest {
  static final LocalDate DAY = LocalDate.of(2026, 11, 30);
  static final ReconConfig CONFIG =
      new ReconConfig(
          "node-1",
          Duration.ofMinutes(5),
          Duration.ofHours(2),
          new Tolerances(5, 1),
          50,
          Duration.ofMinutes(1));

  final InMemoryRecon recon = new InMemoryRecon();

  ReconciliationJob job() {
    return new ReconciliationJob(recon.ports(), CONFIG, Clock.fixed(Day.LATE, ZoneOffset.UTC));
  }

  LocalFact local(LocalFact f) {
    recon.facts.local(f);
    return f;
  }

  static LocalFact movedAt(LocalFact f, Instant at) {
    return new LocalFact(
        f.flowId(),
        f.goal(),
        f.tradeOrderNo(),
        f.flowRefundOrderNo(),
        f.flowStatus(),
        f.flowVersion(),
        f.attempt(),
        f.refund(),
        f.amountMinor(),
        f.currency(),
        f.channelAccount(),
        at.minusSeconds(60),
        at,
        f.compensation());
  }

  static StatementFact charge(LocalFact f, long amount, long fee) {
    return StatementFact.charge(
        f.tradeOrderNo(),
        f.attemptKey(),
        "psp_" + f.flowId(),
        amount,
        fee,
        Day.EUR,
        f.updatedAt(),
        Day.ACCOUNT);
  }

  @Test
  void aDayWithoutAStatementEndsWithZeroCountsAndSaysSo() {
    Result r = job().run(Day.ACCOUNT, DAY);

    assertThat(r.outcome()).isEqualTo(Outcome.NO_STATEMENT);
    assertThat(r.detail()).contains("no statement");
    assertThat(r.counts().lines()).isZero();
    assertThat(recon.runs.get(r.runId()).status()).isEqualTo(ReconRunStatus.DONE);
    assertThat(recon.differences).isEmpty();
  }

  @Test
  void eachDifferenceIsRecordedOnceWithHowSureItsMatchIs() {
    LocalFact paying = local(Day.flow(1, PAYING));
    LocalFact closed = local(Day.flow(2, CLOSED));
    LocalFact offByThree = local(Day.flow(3, BIZ_SUCCESS));
    LocalFact settled = local(Day.flow(4, BIZ_SUCCESS));
    LocalFact missing = local(Day.flow(5, BIZ_SUCCESS));
    LocalFact nextDaysFile = local(Day.flow(6, BIZ_SUCCESS));
    LocalFact dayBefore = local(movedAt(Day.flow(7, BIZ_SUCCESS), Day.FROM.minusSeconds(600)));
    StatementFact stranger =
        StatementFact.charge(
            "T-elsewhere", null, "psp_x", 700, 50, Day.EUR, Day.FROM.plusSeconds(9), Day.ACCOUNT);
    recon.file(
        1,
        DAY,
        Day.chargeOf(paying),
        Day.chargeOf(closed),
        charge(offByThree, offByThree.amountMinor() + 3, 30),
        Day.chargeOf(settled),
        stranger);
    recon.file(2, DAY.plusDays(1), Day.chargeOf(nextDaysFile));

    Result first = job().run(Day.ACCOUNT, DAY);
    Result second = job().run(Day.ACCOUNT, DAY);

    assertThat(first.outcome()).isEqualTo(Outcome.DONE);
    assertThat(first.counts().lines()).isEqualTo(5);
    assertThat(first.counts().newDifferences()).isEqualTo(5);
    assertThat(recon.byKind(CHARGED_LOCAL_PAYING).confidence())
        .isEqualTo(MatchConfidence.CONFIRMED);
    assertThat(recon.byKind(LATE_CHARGE).confidence()).isEqualTo(MatchConfidence.CONFIRMED);
    assertThat(recon.byKind(AMOUNT_MISMATCH).confidence()).isEqualTo(MatchConfidence.SUGGESTED);
    assertThat(recon.byKind(UNKNOWN_STATEMENT_LINE).confidence()).isEqualTo(MatchConfidence.NONE);
    RecordedDifference gap = recon.byKind(BIZ_SUCCESS_WITHOUT_CHARGE);
    assertThat(gap.tradeOrderNo()).isEqualTo(missing.tradeOrderNo());
    assertThat(gap.confidence()).isEqualTo(MatchConfidence.NONE);
    assertThat(gap.actionableAt()).isAfterOrEqualTo(Day.TO.plus(CONFIG.dateWindow()));
    assertThat(recon.differences.values())
        .extracting(RecordedDifference::tradeOrderNo)
        .doesNotContain(nextDaysFile.tradeOrderNo(), dayBefore.tradeOrderNo());
    assertThat(recon.settlement.get(settled.tradeOrderNo())).isEqualTo(SettlementStatus.SETTLED);
    assertThat(recon.settlement.get(offByThree.tradeOrderNo()))
        .isEqualTo(SettlementStatus.MISMATCH);
    assertThat(recon.marks)
        .filteredOn(m -> m.tradeOrderNo().equals(offByThree.tradeOrderNo()))
        .extracting(m -> m.differenceId())
        .containsExactly(recon.byKind(AMOUNT_MISMATCH).id());
    assertThat(second.counts().newDifferences()).isZero();
    assertThat(second.counts().differences()).isEqualTo(5);
    assertThat(recon.differences).hasSize(5);
    assertThat(recon.events).filteredOn(e -> e.startsWith("found")).hasSize(5);
  }

  @Test
  void aLineNamingTwoLocalCandidatesIsOnlyASuggestion() {
    LocalFact paying = local(Day.flow(1, PAYING));
    LocalFact other = local(Day.flow(2, BIZ_SUCCESS));
    StatementFact twoNames =
        StatementFact.charge(
            other.tradeOrderNo(),
            paying.attemptKey(),
            "psp_1",
            paying.amountMinor(),
            Day.TERMS.expectedChargeFee(paying.amountMinor()),
            Day.EUR,
            paying.updatedAt(),
            Day.ACCOUNT);
    recon.file(1, DAY, twoNames, Day.chargeOf(other));

    job().run(Day.ACCOUNT, DAY);

    assertThat(recon.byKind(CHARGED_LOCAL_PAYING).confidence())
        .isEqualTo(MatchConfidence.SUGGESTED);
  }

  @Test
  void feeLinesGroupingManyPaymentsAreBalancedAgainstTheDaysFees() {
    LocalFact a = local(Day.flow(4, BIZ_SUCCESS));
    LocalFact b = local(Day.flow(8, BIZ_SUCCESS));
    long expected =
        Day.TERMS.expectedChargeFee(a.amountMinor()) + Day.TERMS.expectedChargeFee(b.amountMinor());
    recon.file(1, DAY, charge(a, a.amountMinor(), 0), charge(b, b.amountMinor(), 0));
    recon.feeTotals.put(1L, expected + 7);

    Result r = job().run(Day.ACCOUNT, DAY);

    assertThat(r.counts().newDifferences()).isEqualTo(1);
    RecordedDifference fees = recon.byKind(FEE_MISMATCH);
    assertThat(fees.tradeOrderNo()).isEqualTo("FEES-" + DAY);
    assertThat(fees.confidence()).isEqualTo(MatchConfidence.CONFIRMED);
    assertThat(fees.detail()).contains(String.valueOf(expected));
    assertThat(recon.settlement.get(a.tradeOrderNo())).isEqualTo(SettlementStatus.SETTLED);
  }

  @Test
  void balancedFeeLinesAreNoDifference() {
    LocalFact a = local(Day.flow(4, BIZ_SUCCESS));
    recon.file(1, DAY, charge(a, a.amountMinor(), 0));
    recon.feeTotals.put(1L, Day.TERMS.expectedChargeFee(a.amountMinor()));

    assertThat(job().run(Day.ACCOUNT, DAY).counts().differences()).isZero();
  }

  @Test
  void aLaterReversalTurnsSettledIntoMismatchAndARerunKeepsIt() {
    LocalFact paid = local(Day.flow(4, BIZ_SUCCESS));
    recon.file(1, DAY, Day.chargeOf(paid));
    job().run(Day.ACCOUNT, DAY);
    assertThat(recon.settlement.get(paid.tradeOrderNo())).isEqualTo(SettlementStatus.SETTLED);
    StatementFact reversal =
        new StatementFact(
            StatementKind.ADJUSTMENT,
            LineOutcome.SUCCEEDED,
            paid.tradeOrderNo(),
            null,
            paid.attemptKey(),
            "psp_rev",
            paid.amountMinor(),
            0,
            Day.EUR,
            Day.TO.plusSeconds(3_600 * 20),
            Day.ACCOUNT);
    recon.file(2, DAY.plusDays(1), reversal);

    job().run(Day.ACCOUNT, DAY.plusDays(1));
    job().run(Day.ACCOUNT, DAY);

    assertThat(recon.settlement.get(paid.tradeOrderNo())).isEqualTo(SettlementStatus.MISMATCH);
    assertThat(recon.marks.get(recon.marks.size() - 1).differenceId())
        .isEqualTo(recon.byKind(ADJUSTMENT_TO_REVIEW).id());
  }

  @Test
  void aDayHeldByAnotherNodeIsLeftToIt() {
    recon.heldBy = "node-2";

    Result r = job().run(Day.ACCOUNT, DAY);

    assertThat(r.outcome()).isEqualTo(Outcome.BUSY);
    assertThat(r.runId()).isNull();
  }

  @Test
  void aFailureEndsTheRunFailedWithItsReason() {
    recon.file(1, DAY, Day.chargeOf(local(Day.flow(4, BIZ_SUCCESS))));
    recon.failLocalDay = new IllegalStateException("cursor closed");

    Result r = job().run(Day.ACCOUNT, DAY);

    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(recon.runs.get(r.runId()).status()).isEqualTo(ReconRunStatus.FAILED);
    assertThat(recon.runs.get(r.runId()).error()).contains("cursor closed");
  }

  @Test
  void anAccountWithoutTermsFails() {
    recon.file(1, DAY);

    Result r = job().run("unknown-account", DAY);

    assertThat(r.outcome()).isEqualTo(Outcome.FAILED);
    assertThat(r.detail()).contains("no reconciliation terms");
  }

  static LocalFact partialRefund(LocalFact f, int seq, long amount) {
    LocalRefund refund =
        new LocalRefund(
            800 + seq,
            "a_" + f.tradeOrderNo() + "_" + seq,
            RefundStatus.SUCCESS,
            amount,
            2,
            f.updatedAt().plusSeconds(60L * seq));
    return new LocalFact(
        f.flowId(),
        f.goal(),
        f.tradeOrderNo(),
        f.flowRefundOrderNo(),
        f.flowStatus(),
        f.flowVersion(),
        f.attempt(),
        refund,
        f.amountMinor(),
        f.currency(),
        f.channelAccount(),
        f.createdAt(),
        f.updatedAt(),
        f.compensation());
  }

  @Test
  void aChargeWithSeveralPartialRefundsIsMatchedRefundByRefund() {
    LocalFact paid = local(Day.flow(9, BIZ_SUCCESS));
    LocalFact first = local(partialRefund(paid, 1, 300));
    LocalFact second = local(partialRefund(paid, 2, 200));
    recon.file(
        1,
        DAY,
        Day.chargeOf(paid),
        Day.refundOf(first, LineOutcome.SUCCEEDED),
        Day.refundOf(second, LineOutcome.SUCCEEDED));

    Result all = job().run(Day.ACCOUNT, DAY);

    assertThat(all.counts().differences()).isZero();
    assertThat(recon.settlement.get(paid.tradeOrderNo())).isEqualTo(SettlementStatus.SETTLED);
  }

  @Test
  void aPartialRefundTheStatementDoesNotShowIsTheOnlyDifference() {
    LocalFact paid = local(Day.flow(9, BIZ_SUCCESS));
    LocalFact first = local(partialRefund(paid, 1, 300));
    LocalFact second = local(partialRefund(paid, 2, 200));
    recon.file(1, DAY, Day.chargeOf(paid), Day.refundOf(first, LineOutcome.SUCCEEDED));

    Result r = job().run(Day.ACCOUNT, DAY);

    assertThat(r.counts().differences()).isEqualTo(1);
    RecordedDifference gap = recon.byKind(DifferenceClass.REFUND_NOT_AT_PSP);
    assertThat(gap.refundOrderNo()).isEqualTo(second.refund().refundOrderNo());
    assertThat(gap.actionableAt()).isAfter(Day.TO);
  }
}
