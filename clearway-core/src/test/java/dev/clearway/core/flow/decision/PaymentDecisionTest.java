package dev.clearway.core.flow.decision;

import static dev.clearway.core.testing.Flows.DEADLINE;
import static dev.clearway.core.testing.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.decision.PaymentDecision.NextCall;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The payment stage. */
class PaymentDecisionTest {
  private static final PayFlow PAYING = flow(FlowStatus.PAYING);
  private static final PayFlow WAIT_PAY = flow(FlowStatus.WAIT_PAY);

  @Test
  void successMovesToPayed() {
    assertThat(PaymentDecision.onPaymentResult(WalletResult.success("req-1")))
        .isEqualTo(new Decision.Move(FlowStatus.PAYED, null));
  }

  @Test
  void definiteFailureMovesToPayFailWithTheWalletsCode() {
    assertThat(
            PaymentDecision.onPaymentResult(
                WalletResult.failed("INSUFFICIENT_BALANCE", "req-1", false)))
        .isEqualTo(new Decision.Move(FlowStatus.PAY_FAIL, "INSUFFICIENT_BALANCE"));
  }

  @Test
  void processingWaits() {
    assertThat(PaymentDecision.onPaymentResult(WalletResult.processing("req-1")))
        .isEqualTo(new Decision.Wait("PAY_PROCESSING"));
  }

  @Test
  void unknownWaitsAndKeepsTheTransportCode() {
    assertThat(PaymentDecision.onPaymentResult(WalletResult.unknown("READ_TIMEOUT")))
        .isEqualTo(new Decision.Wait("READ_TIMEOUT"));
  }

  @Test
  void unknownWithoutCodeWaitsWithDefaultCode() {
    assertThat(PaymentDecision.onPaymentResult(WalletResult.unknown(null)))
        .isEqualTo(new Decision.Wait("PAY_UNKNOWN"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"READ_TIMEOUT", "HTTP_503", "CONNECTION_RESET", "HTTP_500"})
  void unknownIsNeverPayFail(String transportError) {
    Decision d = PaymentDecision.onPaymentResult(WalletResult.unknown(transportError));
    assertThat(d).isInstanceOf(Decision.Wait.class);
    assertThat(d).isNotInstanceOf(Decision.Move.class);
  }

  @Test
  void noRecordWaits() {
    assertThat(PaymentDecision.onPaymentResult(WalletResult.noRecord("req-1")))
        .isEqualTo(new Decision.Wait("PAY_NO_RECORD"));
  }

  @ParameterizedTest
  @EnumSource(Certainty.class)
  void everyMoveIsALegalEdgeFromPaying(Certainty certainty) {
    Decision d = PaymentDecision.onPaymentResult(new WalletResult(certainty, "X", "req-1", false));
    if (d instanceof Decision.Move m) {
      assertThat(Transitions.isLegal(FlowStatus.PAYING, m.to())).isTrue();
    }
    assertThat(d).isNotInstanceOf(Decision.Freeze.class);
  }

  @ParameterizedTest
  @EnumSource(value = Certainty.class, names = "DEFINITE_FAILURE", mode = EnumSource.Mode.EXCLUDE)
  void onlyADefiniteFailureEverLeadsToPayFail(Certainty certainty) {
    for (boolean retryable : new boolean[] {true, false}) {
      Decision d =
          PaymentDecision.onPaymentResult(new WalletResult(certainty, "ANY", "req-1", retryable));
      assertThat(d).isNotEqualTo(new Decision.Move(FlowStatus.PAY_FAIL, "ANY"));
      if (d instanceof Decision.Move m) {
        assertThat(m.to()).isNotEqualTo(FlowStatus.PAY_FAIL);
      }
    }
  }

  // ---- afterQuery
  @Test
  void noRecordBeforeTheDeadlineResendsTheSameOrder() {
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.noRecord("q-1"), DEADLINE.minusMillis(1)))
        .isEqualTo(NextCall.RESEND_SAME_ORDER);
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.noRecord("q-1"), DEADLINE.minus(Duration.ofDays(3))))
        .isEqualTo(NextCall.RESEND_SAME_ORDER);
  }

  @Test
  void noRecordAtTheDeadlineClosesTheOrder() {
    assertThat(PaymentDecision.afterQuery(PAYING, WalletResult.noRecord("q-1"), DEADLINE))
        .isEqualTo(NextCall.CLOSE_ORDER);
  }

  @Test
  void noRecordAfterTheDeadlineClosesTheOrder() {
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.noRecord("q-1"), DEADLINE.plusMillis(1)))
        .isEqualTo(NextCall.CLOSE_ORDER);
    assertThat(
            PaymentDecision.afterQuery(
                PAYING, WalletResult.noRecord("q-1"), DEADLINE.plus(Duration.ofDays(30))))
        .isEqualTo(NextCall.CLOSE_ORDER);
  }

  @ParameterizedTest
  @EnumSource(value = Certainty.class, names = "NO_RECORD", mode = EnumSource.Mode.EXCLUDE)
  void anyOtherAnswerIsDecidedFromTheQueryBeforeAndAfterTheDeadline(Certainty certainty) {
    WalletResult answer = new WalletResult(certainty, null, "q-1", false);
    for (Instant now :
        new Instant[] {DEADLINE.minusSeconds(60), DEADLINE, DEADLINE.plusSeconds(60)}) {
      assertThat(PaymentDecision.afterQuery(PAYING, answer, now)).isEqualTo(NextCall.DECIDE);
    }
  }

  @Test
  void beforeTheDeadlineMovesToPaying() {
    assertThat(PaymentDecision.startPayment(WAIT_PAY, DEADLINE.minusMillis(1)))
        .isEqualTo(new Decision.Move(FlowStatus.PAYING, null));
  }

  @Test
  void atTheDeadlineClosesBeforeAnySideEffect() {
    assertThat(PaymentDecision.startPayment(WAIT_PAY, DEADLINE))
        .isEqualTo(new Decision.Move(FlowStatus.CLOSED, "BIZ_DEADLINE_PASSED_BEFORE_PAY"));
  }

  @Test
  void afterTheDeadlineClosesBeforeAnySideEffect() {
    Decision d = PaymentDecision.startPayment(WAIT_PAY, DEADLINE.plus(Duration.ofHours(2)));
    assertThat(d).isEqualTo(new Decision.Move(FlowStatus.CLOSED, "BIZ_DEADLINE_PASSED_BEFORE_PAY"));
    assertThat(Transitions.isLegal(FlowStatus.WAIT_PAY, ((Decision.Move) d).to())).isTrue();
  }

  @Test
  void closedOrNeverCreatedEndsThePaymentAsFailedBeforeCharge() {
    assertThat(PaymentDecision.onCloseResult(WalletResult.success("c-1")))
        .isEqualTo(new Decision.Move(FlowStatus.PAY_FAIL, "CLOSED_BEFORE_CHARGE"));
    assertThat(PaymentDecision.onCloseResult(WalletResult.noRecord("c-1")))
        .isEqualTo(new Decision.Move(FlowStatus.PAY_FAIL, "CLOSED_BEFORE_CHARGE"));
  }

  @Test
  void alreadyPaidWaitsAndNeverFails() {
    assertThat(PaymentDecision.onCloseResult(WalletResult.failed("ALREADY_PAID", "c-1", false)))
        .isEqualTo(new Decision.Wait("ALREADY_PAID"));
  }

  @Test
  void unknownOrProcessingCloseWaits() {
    assertThat(PaymentDecision.onCloseResult(WalletResult.unknown("READ_TIMEOUT")))
        .isEqualTo(new Decision.Wait("READ_TIMEOUT"));
    assertThat(PaymentDecision.onCloseResult(WalletResult.unknown(null)))
        .isEqualTo(new Decision.Wait("CLOSE_UNKNOWN"));
    assertThat(PaymentDecision.onCloseResult(WalletResult.processing("c-1")))
        .isEqualTo(new Decision.Wait("CLOSE_UNKNOWN"));
  }
}
