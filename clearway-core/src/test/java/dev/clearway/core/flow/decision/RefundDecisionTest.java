package dev.clearway.core.flow.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.decision.RefundDecision.NextCall;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The compensation refund stage. */
class RefundDecisionTest {

  // ---- afterQuery --------------------------------------------------------------------------

  @Test
  void noRecordResendsTheSameRefund() {
    assertThat(RefundDecision.afterQuery(WalletResult.noRecord("q-1")))
        .isEqualTo(NextCall.RESEND_SAME_REFUND);
  }

  @Test
  void retryableDefiniteFailureResendsTheSameRefund() {
    assertThat(RefundDecision.afterQuery(WalletResult.failed("CHANNEL_BUSY", "q-1", true)))
        .isEqualTo(NextCall.RESEND_SAME_REFUND);
  }

  @Test
  void finalDefiniteFailureIsDecided() {
    assertThat(RefundDecision.afterQuery(WalletResult.failed("ACCOUNT_CLOSED", "q-1", false)))
        .isEqualTo(NextCall.DECIDE);
  }

  @Test
  void successProcessingAndUnknownAreDecided() {
    assertThat(RefundDecision.afterQuery(WalletResult.success("q-1"))).isEqualTo(NextCall.DECIDE);
    assertThat(RefundDecision.afterQuery(WalletResult.processing("q-1")))
        .isEqualTo(NextCall.DECIDE);
    assertThat(RefundDecision.afterQuery(WalletResult.unknown("READ_TIMEOUT")))
        .isEqualTo(NextCall.DECIDE);
  }

  // ---- onRefundResult ----------------------------------------------------------------------

  @Test
  void successMovesToRefunded() {
    assertThat(RefundDecision.onRefundResult(WalletResult.success("r-1")))
        .isEqualTo(new Decision.Move(FlowStatus.REFUNDED, null));
  }

  @Test
  void retryableFailureWaits() {
    assertThat(RefundDecision.onRefundResult(WalletResult.failed("CHANNEL_BUSY", "r-1", true)))
        .isEqualTo(new Decision.Wait("CHANNEL_BUSY"));
    assertThat(RefundDecision.onRefundResult(WalletResult.failed(null, "r-1", true)))
        .isEqualTo(new Decision.Wait("REFUND_FAILED"));
  }

  @Test
  void finalFailureEscalatesToAPersonButStaysRefunding() {
    assertThat(RefundDecision.onRefundResult(WalletResult.failed("ACCOUNT_CLOSED", "r-1", false)))
        .isEqualTo(new Decision.Escalate("ACCOUNT_CLOSED"));
    assertThat(RefundDecision.onRefundResult(WalletResult.failed(null, "r-1", false)))
        .isEqualTo(new Decision.Escalate("REFUND_FAILED_FINAL"));
  }

  @Test
  void processingUnknownAndNoRecordWait() {
    assertThat(RefundDecision.onRefundResult(WalletResult.processing("r-1")))
        .isEqualTo(new Decision.Wait("REFUND_PROCESSING"));
    assertThat(RefundDecision.onRefundResult(WalletResult.unknown("READ_TIMEOUT")))
        .isEqualTo(new Decision.Wait("READ_TIMEOUT"));
    assertThat(RefundDecision.onRefundResult(WalletResult.unknown(null)))
        .isEqualTo(new Decision.Wait("REFUND_UNKNOWN"));
    assertThat(RefundDecision.onRefundResult(WalletResult.noRecord("r-1")))
        .isEqualTo(new Decision.Wait("REFUND_NO_RECORD"));
  }

  @ParameterizedTest
  @EnumSource(Certainty.class)
  void onlySuccessMovesAndOnlyToRefunded(Certainty certainty) {
    for (boolean retryable : new boolean[] {true, false}) {
      Decision d =
          RefundDecision.onRefundResult(new WalletResult(certainty, "E", "r-1", retryable));
      assertThat(d).isNotInstanceOf(Decision.Freeze.class);
      if (d instanceof Decision.Move m) {
        assertThat(certainty).isEqualTo(Certainty.SUCCESS);
        assertThat(m.to()).isEqualTo(FlowStatus.REFUNDED);
        assertThat(Transitions.isLegal(FlowStatus.REFUNDING, m.to())).isTrue();
      } else {
        assertThat(certainty).isNotEqualTo(Certainty.SUCCESS);
      }
    }
  }
}
