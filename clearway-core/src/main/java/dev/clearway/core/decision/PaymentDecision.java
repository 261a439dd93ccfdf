package dev.clearway.core.decision;

import dev.clearway.core.domain.FlowStatus;
import dev.clearway.core.domain.PayFlow;
import dev.clearway.core.fact.WalletResult;
import java.time.Instant;

/** The payment stage (seed 000 section 6): pure functions of the row and the wallet's answers. */
public final class PaymentDecision {

  /** What to do after querying the wallet for an order the row says is PAYING. */
  public enum NextCall {
    /** The query answered: decide from it. */
    DECIDE,
    /** The wallet has no record and the deadline is ahead: re-send the same order number. */
    RESEND_SAME_ORDER,
    /** The wallet has no record and the deadline passed: close the order so it can never charge. */
    CLOSE_ORDER
  }

  private PaymentDecision() {}

  public static NextCall afterQuery(PayFlow flow, WalletResult query, Instant now) {
    return switch (query.certainty()) {
      case NO_RECORD ->
          now.isBefore(flow.bizDeadline()) ? NextCall.RESEND_SAME_ORDER : NextCall.CLOSE_ORDER;
      case SUCCESS, DEFINITE_FAILURE, PROCESSING, UNKNOWN -> NextCall.DECIDE;
    };
  }

  /** WAIT_PAY: pay while the deadline is ahead, else close before any side effect exists. */
  public static Decision startPayment(PayFlow flow, Instant now) {
    return now.isBefore(flow.bizDeadline())
        ? Decision.move(FlowStatus.PAYING)
        : Decision.move(FlowStatus.CLOSED, "BIZ_DEADLINE_PASSED_BEFORE_PAY");
  }

  /** PAYING: decide from a pay or query answer. Timeouts and 5xx never mean failure. */
  public static Decision onPaymentResult(WalletResult result) {
    return switch (result.certainty()) {
      case SUCCESS -> Decision.move(FlowStatus.PAYED);
      case DEFINITE_FAILURE -> Decision.move(FlowStatus.PAY_FAIL, result.errorCode());
      case PROCESSING -> Decision.waitFor("PAY_PROCESSING");
      case UNKNOWN -> Decision.waitFor(orDefault(result.errorCode(), "PAY_UNKNOWN"));
      case NO_RECORD -> Decision.waitFor("PAY_NO_RECORD");
    };
  }

  /** PAYING after the deadline with no record: the wallet's answer to our close-order call. */
  public static Decision onCloseResult(WalletResult result) {
    return switch (result.certainty()) {
      case SUCCESS, NO_RECORD -> Decision.move(FlowStatus.PAY_FAIL, "CLOSED_BEFORE_CHARGE");
      // ALREADY_PAID or anything else: the charge may exist; query again next time.
      case DEFINITE_FAILURE, PROCESSING, UNKNOWN ->
          Decision.waitFor(orDefault(result.errorCode(), "CLOSE_UNKNOWN"));
    };
  }

  static String orDefault(String code, String fallback) {
    return code == null ? fallback : code;
  }
}
