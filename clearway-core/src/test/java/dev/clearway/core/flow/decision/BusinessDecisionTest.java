package dev.clearway.core.flow.decision;

import static dev.clearway.core.testing.Flows.DEADLINE;
import static dev.clearway.core.testing.Flows.NUMBERS;
import static dev.clearway.core.testing.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.core.flow.fact.BizFact.BizState;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The business stage: the full table. */
class BusinessDecisionTest {
  private static final Duration GRACE = Duration.ofSeconds(5);
  private static final PayFlow PAYED = flow(FlowStatus.PAYED);
  private static final String THIS_ORDER = NUMBERS.tradeOrderNo();
  private static final String OTHER_ORDER = OrderNumbers.derive(16L, 900L).tradeOrderNo();

  /**
   * Instants across the deadline: long before, just before, at, within grace, after, long after.
   */
  static Stream<Instant> allTimes() {
    return Stream.of(
        DEADLINE.minus(Duration.ofDays(1)),
        DEADLINE.minusMillis(1),
        DEADLINE,
        DEADLINE.plus(GRACE).minusMillis(1),
        DEADLINE.plus(GRACE),
        DEADLINE.plus(GRACE).plusMillis(1),
        DEADLINE.plus(Duration.ofDays(365)));
  }

  private static Decision decide(BizFact fact, Instant now) {
    return BusinessDecision.decide(PAYED, fact, now, GRACE);
  }

  // ---- done, attributed to this order -> BIZ_SUCCESS ----------------------------------------

  @ParameterizedTest
  @MethodSource("allTimes")
  void doneAndAttributedToThisOrderIsBizSuccessAtAnyTime(Instant now) {
    Decision d = decide(BizFact.done(THIS_ORDER), now);
    assertThat(d).isEqualTo(new Decision.Move(FlowStatus.BIZ_SUCCESS, null));
    assertThat(BusinessDecision.isRefund(d)).isFalse();
  }

  // ---- done, attributed to another order -> refund -----------------------------------------

  @ParameterizedTest
  @MethodSource("allTimes")
  void doneByAnotherOrderRefundsThisOneAtAnyTime(Instant now) {
    Decision d = decide(BizFact.done(OTHER_ORDER), now);
    assertThat(d).isEqualTo(new Decision.Move(FlowStatus.REFUNDING, "BIZ_DONE_BY_OTHER_ORDER"));
    assertThat(BusinessDecision.isRefund(d)).isTrue();
  }

  @Test
  void attributionToThisAttemptsRefundNumberDoesNotCountAsThisOrder() {
    Decision d = decide(BizFact.done(NUMBERS.refundOrderNo()), DEADLINE.minusSeconds(1));
    assertThat(d).isNotEqualTo(new Decision.Move(FlowStatus.BIZ_SUCCESS, null));
  }

  // ---- not done: wait before deadline + grace, refund after ---------------------------------
  // This wait is bounded by the deadline (its exit is the refund), so it never escalates.

  @Test
  void notDoneLongBeforeTheDeadlineWaits() {
    assertThat(decide(BizFact.notDone(), DEADLINE.minus(Duration.ofHours(1))))
        .isEqualTo(new Decision.Wait("BIZ_NOT_DONE", true));
  }

  @Test
  void notDonePastTheDeadlineButWithinGraceStillWaits() {
    assertThat(decide(BizFact.notDone(), DEADLINE))
        .isEqualTo(new Decision.Wait("BIZ_NOT_DONE", true));
    assertThat(decide(BizFact.notDone(), DEADLINE.plus(GRACE).minusMillis(1)))
        .isEqualTo(new Decision.Wait("BIZ_NOT_DONE", true));
  }

  @Test
  void notDoneAtDeadlinePlusGraceRefunds() {
    Decision d = decide(BizFact.notDone(), DEADLINE.plus(GRACE));
    assertThat(d).isEqualTo(new Decision.Move(FlowStatus.REFUNDING, "BIZ_DEADLINE_PASSED"));
    assertThat(BusinessDecision.isRefund(d)).isTrue();
  }

  @Test
  void notDoneAfterDeadlinePlusGraceRefunds() {
    assertThat(decide(BizFact.notDone(), DEADLINE.plus(Duration.ofDays(2))))
        .isEqualTo(new Decision.Move(FlowStatus.REFUNDING, "BIZ_DEADLINE_PASSED"));
  }

  @Test
  void zeroGraceRefundsRightAtTheDeadline() {
    assertThat(
            BusinessDecision.decide(
                PAYED, BizFact.notDone(), DEADLINE.minusMillis(1), Duration.ZERO))
        .isInstanceOf(Decision.Wait.class);
    assertThat(BusinessDecision.decide(PAYED, BizFact.notDone(), DEADLINE, Duration.ZERO))
        .isEqualTo(new Decision.Move(FlowStatus.REFUNDING, "BIZ_DEADLINE_PASSED"));
  }

  // ---- contradictions -> freeze ------------------------------------------------------------

  @ParameterizedTest
  @MethodSource("allTimes")
  void doneWithoutAttributionFreezes(Instant now) {
    assertThat(decide(BizFact.done(null), now))
        .isEqualTo(new Decision.Freeze("BIZ_DONE_WITHOUT_ATTRIBUTION"));
  }

  @ParameterizedTest
  @MethodSource("allTimes")
  void attributionWithoutDoneFreezes(Instant now) {
    assertThat(decide(new BizFact(BizState.NOT_DONE, THIS_ORDER, null), now))
        .isEqualTo(new Decision.Freeze("BIZ_ATTRIBUTED_BUT_NOT_DONE"));
    assertThat(decide(new BizFact(BizState.NOT_DONE, OTHER_ORDER, null), now))
        .isEqualTo(new Decision.Freeze("BIZ_ATTRIBUTED_BUT_NOT_DONE"));
  }

  // ---- unreadable -> wait, never refund ----------------------------------------------------
  // The wait is not bounded by the deadline (boundedByDeadline = false): nothing but a person can
  // end it, so it spends the retry budget and escalates instead of refunding blindly.

  @ParameterizedTest
  @MethodSource("allTimes")
  void unreadableWaitsAndNeverRefundsEvenLongAfterTheDeadline(Instant now) {
    Decision d = decide(BizFact.unreadable("BIZ_READ_TIMEOUT"), now);
    assertThat(d).isEqualTo(new Decision.Wait("BIZ_READ_TIMEOUT", false));
    assertThat(BusinessDecision.isRefund(d)).isFalse();
  }

  @Test
  void unreadableWithoutCodeWaitsWithDefaultCode() {
    assertThat(decide(BizFact.unreadable(null), DEADLINE.plus(Duration.ofDays(3650))))
        .isEqualTo(new Decision.Wait("BIZ_FACT_UNREADABLE", false));
  }

  @Test
  void unreadableWithStrayAttributionStillNeverRefunds() {
    Decision d =
        decide(
            new BizFact(BizState.UNREADABLE, OTHER_ORDER, "HTTP_503"),
            DEADLINE.plus(Duration.ofDays(30)));
    assertThat(d).isInstanceOf(Decision.Wait.class);
    assertThat(BusinessDecision.isRefund(d)).isFalse();
  }

  // ---- shape of every decision -------------------------------------------------------------

  static Stream<BizFact> allFacts() {
    return Stream.of(
        BizFact.done(THIS_ORDER),
        BizFact.done(OTHER_ORDER),
        BizFact.done(null),
        BizFact.notDone(),
        new BizFact(BizState.NOT_DONE, THIS_ORDER, null),
        BizFact.unreadable("X"),
        BizFact.unreadable(null));
  }

  @Test
  void everyMoveIsALegalEdgeFromPayedAndNothingEscalatesDirectly() {
    allFacts()
        .forEach(
            fact ->
                allTimes()
                    .forEach(
                        now -> {
                          Decision d = decide(fact, now);
                          assertThat(d).isNotInstanceOf(Decision.Escalate.class);
                          if (d instanceof Decision.Move m) {
                            assertThat(Transitions.isLegal(FlowStatus.PAYED, m.to()))
                                .as("%s at %s", fact, now)
                                .isTrue();
                          }
                        }));
  }

  @Test
  void bizSuccessOnlyFromAttributionToThisOrder() {
    allFacts()
        .filter(f -> !(f.state() == BizState.DONE && THIS_ORDER.equals(f.attributedOrderNo())))
        .forEach(
            fact ->
                allTimes()
                    .forEach(
                        now ->
                            assertThat(decide(fact, now))
                                .as("%s at %s", fact, now)
                                .isNotEqualTo(new Decision.Move(FlowStatus.BIZ_SUCCESS, null))));
  }

  // ---- isRefund / mayCallBusiness ----------------------------------------------------------

  @Test
  void isRefundRecognisesOnlyAMoveToRefunding() {
    assertThat(BusinessDecision.isRefund(new Decision.Move(FlowStatus.REFUNDING, "X"))).isTrue();
    assertThat(BusinessDecision.isRefund(new Decision.Move(FlowStatus.BIZ_SUCCESS, null)))
        .isFalse();
    assertThat(BusinessDecision.isRefund(new Decision.Wait("REFUNDING"))).isFalse();
    assertThat(BusinessDecision.isRefund(new Decision.Escalate("REFUNDING"))).isFalse();
    assertThat(BusinessDecision.isRefund(new Decision.Freeze("REFUNDING"))).isFalse();
  }

  @Test
  void theBusinessIsCalledOnlyBeforeTheDeadline() {
    assertThat(BusinessDecision.mayCallBusiness(PAYED, DEADLINE.minusMillis(1))).isTrue();
    assertThat(BusinessDecision.mayCallBusiness(PAYED, DEADLINE)).isFalse();
    assertThat(BusinessDecision.mayCallBusiness(PAYED, DEADLINE.plusMillis(1))).isFalse();
  }
}
