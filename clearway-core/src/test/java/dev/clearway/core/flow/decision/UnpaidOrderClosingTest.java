package dev.clearway.core.flow.decision;

import static dev.clearway.core.testing.Flows.DEADLINE;
import static dev.clearway.core.testing.Flows.cancelRequested;
import static dev.clearway.core.testing.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.decision.PaymentDecision.NextCall;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An order still unpaid (no record at the wallet, or PROCESSING there) is closed at the wallet once
 * its goal was cancelled or the unpaid timeout has passed since creation; an answer that says what
 * the money did is always decided from, whoever gave up.
 */
class UnpaidOrderClosingTest {
  private static final PayFlow PAYING = flow(FlowStatus.PAYING);
  private static final PayFlow CANCELLED = cancelRequested(FlowStatus.PAYING);
  private static final Duration UNPAID = Duration.ofMinutes(15);
  private static final Instant TIMED_OUT = PAYING.createdAt().plus(UNPAID);
  private static final Instant BEFORE_TIMEOUT = TIMED_OUT.minusMillis(1);

  private static WalletResult answer(Certainty certainty) {
    return new WalletResult(certainty, null, "q-1", false);
  }

  @Test
  void theUnpaidTimeoutFallsBeforeTheDeadlineInTheseCases() {
    assertThat(TIMED_OUT).isBefore(DEADLINE);
  }

  // ---- cancelled goal ------------------------------------------------------------------------

  @Test
  void aCancelledGoalClosesAnOrderTheWalletHasNoRecordOfEvenBeforeTheDeadline() {
    assertThat(
            PaymentDecision.afterQuery(
                CANCELLED, WalletResult.noRecord("q-1"), DEADLINE.minus(Duration.ofMinutes(50))))
        .isEqualTo(NextCall.CLOSE_ORDER);
    assertThat(
            PaymentDecision.afterQuery(
                CANCELLED,
                WalletResult.noRecord("q-1"),
                DEADLINE.minus(Duration.ofMinutes(50)),
                UNPAID))
        .isEqualTo(NextCall.CLOSE_ORDER);
  }

  @Test
  void aCancelledGoalClosesAnOrderStillProcessingAtTheWallet() {
    assertThat(
            PaymentDecision.afterQuery(
                CANCELLED, WalletResult.processing("q-1"), DEADLINE.minus(Duration.ofMinutes(50))))
        .isEqualTo(NextCall.CLOSE_ORDER);
  }

  @Test
  void aProcessingOrderOfAGoalStillWantedIsDecidedFromTheQuery() {
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.processing("q-1"), DEADLINE.minus(Duration.ofMinutes(50))))
        .isEqualTo(NextCall.DECIDE);
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.processing("q-1"), BEFORE_TIMEOUT, UNPAID))
        .isEqualTo(NextCall.DECIDE);
  }

  @Test
  void aCancelledGoalNeverStartsAPayment() {
    assertThat(
            PaymentDecision.startPayment(
                cancelRequested(FlowStatus.WAIT_PAY), DEADLINE.minusSeconds(600)))
        .isEqualTo(new Decision.Move(FlowStatus.CLOSED, "CANCELLED"));
  }

  // ---- unpaid timeout ------------------------------------------------------------------------

  @Test
  void noRecordBeforeTheUnpaidTimeoutResendsTheSameOrder() {
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.noRecord("q-1"), BEFORE_TIMEOUT, UNPAID))
        .isEqualTo(NextCall.RESEND_SAME_ORDER);
  }

  @Test
  void noRecordFromTheUnpaidTimeoutOnClosesTheOrder() {
    assertThat(PaymentDecision.afterQuery(PAYING, WalletResult.noRecord("q-1"), TIMED_OUT, UNPAID))
        .isEqualTo(NextCall.CLOSE_ORDER);
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.noRecord("q-1"), TIMED_OUT.plusSeconds(1), UNPAID))
        .isEqualTo(NextCall.CLOSE_ORDER);
  }

  @Test
  void processingFromTheUnpaidTimeoutOnClosesTheOrder() {
    assertThat(
            PaymentDecision.afterQuery(PAYING, WalletResult.processing("q-1"), TIMED_OUT, UNPAID))
        .isEqualTo(NextCall.CLOSE_ORDER);
  }

  @Test
  void withoutAnUnpaidTimeoutOnlyTheDeadlineClosesAnUnpaidOrder() {
    Instant late = TIMED_OUT.plus(Duration.ofMinutes(10));
    assertThat(PaymentDecision.afterQuery(PAYING, WalletResult.noRecord("q-1"), late, null))
        .isEqualTo(NextCall.RESEND_SAME_ORDER);
    assertThat(PaymentDecision.afterQuery(PAYING, WalletResult.processing("q-1"), late, null))
        .isEqualTo(NextCall.DECIDE);
  }

  @ParameterizedTest
  @EnumSource(
      value = Certainty.class,
      names = {"SUCCESS", "DEFINITE_FAILURE", "UNKNOWN"})
  void anAnswerThatMayKnowTheMoneyIsDecidedFromEvenAfterGivingUp(Certainty certainty) {
    assertThat(PaymentDecision.afterQuery(CANCELLED, answer(certainty), TIMED_OUT, UNPAID))
        .isEqualTo(NextCall.DECIDE);
    assertThat(
            PaymentDecision.afterQuery(PAYING, answer(certainty), DEADLINE.plusSeconds(1), UNPAID))
        .isEqualTo(NextCall.DECIDE);
  }

  // ---- the reason a closed order carries -----------------------------------------------------

  @Test
  void anOrderClosedForACancelledGoalSaysCancelledAtAnyTime() {
    for (Instant now : new Instant[] {TIMED_OUT, DEADLINE, DEADLINE.plus(Duration.ofDays(1))}) {
      assertThat(PaymentDecision.closeReason(CANCELLED, now)).isEqualTo("CANCELLED");
    }
  }

  @Test
  void anOrderClosedBeforeTheDeadlineWasClosedForItsUnpaidTimeout() {
    assertThat(PaymentDecision.closeReason(PAYING, TIMED_OUT)).isEqualTo("UNPAID_TIMEOUT");
    assertThat(PaymentDecision.closeReason(PAYING, DEADLINE.minusMillis(1)))
        .isEqualTo("UNPAID_TIMEOUT");
  }

  @Test
  void anOrderClosedFromTheDeadlineOnWasClosedBeforeAnyCharge() {
    assertThat(PaymentDecision.closeReason(PAYING, DEADLINE)).isEqualTo("CLOSED_BEFORE_CHARGE");
    assertThat(PaymentDecision.closeReason(PAYING, DEADLINE.plusSeconds(1)))
        .isEqualTo("CLOSED_BEFORE_CHARGE");
  }

  @Test
  void aClosedOrderFailsThePaymentWithTheReasonItWasClosedFor() {
    assertThat(PaymentDecision.onCloseResult(WalletResult.success("c-1"), "CANCELLED"))
        .isEqualTo(new Decision.Move(FlowStatus.PAY_FAIL, "CANCELLED"));
    assertThat(PaymentDecision.onCloseResult(WalletResult.noRecord("c-1"), "UNPAID_TIMEOUT"))
        .isEqualTo(new Decision.Move(FlowStatus.PAY_FAIL, "UNPAID_TIMEOUT"));
  }
}
