package dev.clearway.core.reconciliation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.reconciliation.decision.MatchConfidenceRule;
import dev.clearway.core.reconciliation.decision.RefundCandidates;
import dev.clearway.core.reconciliation.decision.StatementMatcher;
import dev.clearway.core.reconciliation.decision.Tolerances;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.LineOutcome;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.reconciliation.domain.LocalRefund;
import dev.clearway.core.reconciliation.domain.MatchConfidence;
import dev.clearway.core.reconciliation.domain.StatementFact;
import dev.clearway.core.reconciliation.domain.StatementKind;
import dev.clearway.core.refund.domain.RefundStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A refund line that names the payment (its metadata's attempt key) but not our refund number, as a
 * PSP's report naming refunds by its own id does, is matched to the payment's refund of its amount:
 * one candidate is a confirmed match, several a suggested one, none an unknown line.
 */
class RefundByPaymentMatchTest {
  private static final LocalFact PAID = Day.flow(1, FlowStatus.BIZ_SUCCESS);

  private final List<LocalFact> matched = new ArrayList<>();
  private final List<Boolean> ambiguous = new ArrayList<>();

  @Test
  void oneRefundOfTheAmountIsAConfirmedMatch() {
    LocalFact first = refund(1, 400, RefundStatus.SUCCESS);
    LocalFact second = refund(2, 300, RefundStatus.PROCESSING);
    StatementMatcher matcher = matcher(new InMemoryFacts().local(PAID).local(first).local(second));

    List<Difference> agreeing = matcher.match(line(400));
    List<Difference> pending = matcher.match(line(300));

    assertThat(agreeing).isEmpty();
    assertThat(pending)
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.REFUND_SETTLED_LOCAL_PENDING);
    assertThat(matched)
        .extracting(LocalFact::refundOrderNo)
        .containsExactly(first.refundOrderNo(), second.refundOrderNo());
    assertThat(ambiguous).containsExactly(false, false);
    assertThat(confidence(pending.get(0), false)).isEqualTo(MatchConfidence.CONFIRMED);
    assertThat(matcher.seen().sawRefund(first.refundOrderNo())).isTrue();
    assertThat(matcher.seen().sawRefund(second.refundOrderNo())).isTrue();
  }

  @Test
  void twoRefundsOfTheAmountAreASuggestedMatchThenTheLastOneConfirmed() {
    LocalFact first = refund(1, 400, RefundStatus.PROCESSING);
    LocalFact second = refund(2, 400, RefundStatus.PROCESSING);
    StatementMatcher matcher = matcher(new InMemoryFacts().local(PAID).local(first).local(second));

    List<Difference> one = matcher.match(line(400));
    List<Difference> other = matcher.match(line(400));

    assertThat(ambiguous).containsExactly(true, false);
    assertThat(one)
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.REFUND_SETTLED_LOCAL_PENDING);
    assertThat(confidence(one.get(0), true)).isEqualTo(MatchConfidence.SUGGESTED);
    assertThat(confidence(other.get(0), false)).isEqualTo(MatchConfidence.CONFIRMED);
    assertThat(matched)
        .extracting(LocalFact::refundOrderNo)
        .containsExactlyInAnyOrder(first.refundOrderNo(), second.refundOrderNo());
  }

  @Test
  void amongSeveralCandidatesTheOneThatAgreesWithTheLineIsSuggested() {
    LocalFact pending = refund(1, 400, RefundStatus.PROCESSING);
    LocalFact done = refund(2, 400, RefundStatus.SUCCESS);

    RefundCandidates.Choice choice =
        RefundCandidates.choose(line(400), List.of(pending, done), no -> false).orElseThrow();

    assertThat(choice.local()).isEqualTo(done);
    assertThat(choice.ambiguous()).isTrue();
    assertThat(
            RefundCandidates.choose(
                line(400), List.of(pending, done), no -> no.equals(done.refundOrderNo())))
        .hasValue(new RefundCandidates.Choice(pending, false));
  }

  @Test
  void noRefundOfTheAmountOrNoPaymentLeavesTheLineUnknown() {
    StatementMatcher matcher =
        matcher(new InMemoryFacts().local(PAID).local(refund(1, 400, RefundStatus.SUCCESS)));
    StatementFact otherKey =
        new StatementFact(
            StatementKind.REFUND,
            LineOutcome.SUCCEEDED,
            null,
            null,
            "ak_nobody",
            "re_2",
            400,
            0,
            Day.EUR,
            PAID.updatedAt(),
            Day.ACCOUNT);

    assertThat(matcher.match(line(399)))
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.UNKNOWN_STATEMENT_LINE);
    assertThat(matcher.match(otherKey))
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.UNKNOWN_STATEMENT_LINE);
    assertThat(matched).isEmpty();
    assertThat(RefundCandidates.choose(line(400), List.of(), no -> false)).isEmpty();
  }

  @Test
  void aDayWhoseRefundLinesCarryOnlyThePaymentShowsNoDifference() {
    LocalFact first = refund(1, 400, RefundStatus.SUCCESS);
    LocalFact second = refund(2, 400, RefundStatus.SUCCESS);
    InMemoryFacts facts = new InMemoryFacts().local(PAID).local(first).local(second);

    List<Difference> found = Run.day(facts, List.of(Day.chargeOf(PAID), line(400), line(400)));
    List<Difference> oneLineShort = Run.day(facts, List.of(Day.chargeOf(PAID), line(400)));

    assertThat(found).isEmpty();
    assertThat(oneLineShort)
        .singleElement()
        .extracting(Difference::kind)
        .isEqualTo(DifferenceClass.REFUND_NOT_AT_PSP);
  }

  private StatementMatcher matcher(InMemoryFacts facts) {
    return new StatementMatcher(
        facts,
        facts,
        Day.window(Day.LATE),
        false,
        (line, local, twoCandidates) -> {
          matched.add(local);
          ambiguous.add(twoCandidates);
        });
  }

  private static MatchConfidence confidence(Difference d, boolean twoCandidates) {
    return MatchConfidenceRule.of(d, twoCandidates, Tolerances.none(), Day.TERMS);
  }

  private static LocalFact refund(int seq, long amount, RefundStatus status) {
    LocalFact done = ReconciliationJobTest.partialRefund(PAID, seq, amount);
    LocalRefund r = done.refund();
    return new LocalFact(
        PAID.flowId(),
        PAID.goal(),
        PAID.tradeOrderNo(),
        PAID.flowRefundOrderNo(),
        PAID.flowStatus(),
        PAID.flowVersion(),
        PAID.attempt(),
        new LocalRefund(r.id(), r.refundOrderNo(), status, amount, r.version(), r.updatedAt()),
        PAID.amountMinor(),
        PAID.currency(),
        PAID.channelAccount(),
        PAID.createdAt(),
        PAID.updatedAt(),
        PAID.compensation());
  }

  /** A succeeded refund line with the PSP's own id and the payment's attempt key only. */
  private static StatementFact line(long amount) {
    return new StatementFact(
        StatementKind.REFUND,
        LineOutcome.SUCCEEDED,
        null,
        null,
        PAID.attemptKey(),
        "re_" + amount,
        amount,
        0,
        Day.EUR,
        PAID.updatedAt().plus(Duration.ofMinutes(30)),
        Day.ACCOUNT);
  }
}
