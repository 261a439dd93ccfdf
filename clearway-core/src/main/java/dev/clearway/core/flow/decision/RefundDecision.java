package dev.clearway.core.flow.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.fact.WalletResult;

/** The compensation refund stage, always with the fixed refund number. */
public final class RefundDecision {

  public enum NextCall {
    DECIDE,
    /** No record, or a definite failure that policy allows to retry: send the same number again. */
    RESEND_SAME_REFUND
  }

  private RefundDecision() {}

  public static NextCall afterQuery(WalletResult query) {
    return switch (query.certainty()) {
      case NO_RECORD -> NextCall.RESEND_SAME_REFUND;
      case DEFINITE_FAILURE -> query.retryable() ? NextCall.RESEND_SAME_REFUND : NextCall.DECIDE;
      case SUCCESS, PROCESSING, UNKNOWN -> NextCall.DECIDE;
    };
  }

  public static Decision onRefundResult(WalletResult result) {
    return switch (result.certainty()) {
      case SUCCESS -> Decision.move(FlowStatus.REFUNDED);
      case DEFINITE_FAILURE ->
          result.retryable()
              ? Decision.waitFor(PaymentDecision.orDefault(result.errorCode(), "REFUND_FAILED"))
              : new Decision.Escalate(
                  PaymentDecision.orDefault(result.errorCode(), "REFUND_FAILED_FINAL"));
      case PROCESSING -> Decision.waitFor("REFUND_PROCESSING");
      case UNKNOWN ->
          Decision.waitFor(PaymentDecision.orDefault(result.errorCode(), "REFUND_UNKNOWN"));
      case NO_RECORD -> Decision.waitFor("REFUND_NO_RECORD");
    };
  }
}
