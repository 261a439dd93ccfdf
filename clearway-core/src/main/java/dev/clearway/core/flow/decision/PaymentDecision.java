package dev.clearway.core.flow.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.fact.WalletResult;
import java.time.Duration;
import java.time.Instant;

/** The payment stage: pure functions of the row and the wallet's answers. */
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
    return afterQuery(flow, query, now, null);
  }

  /**
   * As {@link #afterQuery(PayFlow, WalletResult, Instant)}, and an order still unpaid (no record,
   * or PROCESSING at the wallet) is closed once the goal was cancelled or {@code unpaidTimeout} has
   * passed since creation (null: no timeout).
   */
  public static NextCall afterQuery(
      PayFlow flow, WalletResult query, Instant now, Duration unpaidTimeout) {
    boolean giveUp =
        flow.isCancelRequested()
            || (unpaidTimeout != null && !now.isBefore(flow.createdAt().plus(unpaidTimeout)));
    return switch (query.certainty()) {
      case NO_RECORD ->
          giveUp || !now.isBefore(flow.bizDeadline())
              ? NextCall.CLOSE_ORDER
              : NextCall.RESEND_SAME_ORDER;
      case PROCESSING -> giveUp ? NextCall.CLOSE_ORDER : NextCall.DECIDE;
      case SUCCESS, DEFINITE_FAILURE, UNKNOWN -> NextCall.DECIDE;
    };
  }

  /** Why an order is being closed at the wallet: the error code its PAY_FAIL carries. */
  public static String closeReason(PayFlow flow, Instant now) {
    if (flow.isCancelRequested()) {
      return "CANCELLED";
    }
    return now.isBefore(flow.bizDeadline()) ? "UNPAID_TIMEOUT" : "CLOSED_BEFORE_CHARGE";
  }

  /**
   * At creation: a new attempt starts paying at once (created in PAYING) while its deadline is
   * ahead, the decision {@link #startPayment} takes for a new WAIT_PAY row (no cancel exists yet).
   */
  public static boolean startsAtCreation(NewPayment payment, Instant now) {
    return now.isBefore(payment.bizDeadline());
  }

  /** WAIT_PAY: pay while the deadline is ahead, else close before any side effect exists. */
  public static Decision startPayment(PayFlow flow, Instant now) {
    if (flow.isCancelRequested()) {
      return Decision.move(FlowStatus.CLOSED, "CANCELLED");
    }
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
    return onCloseResult(result, "CLOSED_BEFORE_CHARGE");
  }

  /** As {@link #onCloseResult(WalletResult)}, with the reason the PAY_FAIL carries. */
  public static Decision onCloseResult(WalletResult result, String reason) {
    return switch (result.certainty()) {
      case SUCCESS, NO_RECORD -> Decision.move(FlowStatus.PAY_FAIL, reason);
      // ALREADY_PAID or anything else: the charge may exist; query again next time.
      case DEFINITE_FAILURE, PROCESSING, UNKNOWN ->
          Decision.waitFor(orDefault(result.errorCode(), "CLOSE_UNKNOWN"));
    };
  }

  static String orDefault(String code, String fallback) {
    return code == null ? fallback : code;
  }
}
