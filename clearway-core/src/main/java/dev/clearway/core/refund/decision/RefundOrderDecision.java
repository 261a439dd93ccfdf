package dev.clearway.core.refund.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;

/**
 * The after-sales refund stages: pure functions of the refund row and the facts.
 *
 * <table>
 *   <tr><th>state</th><th>fact</th><th>decision</th></tr>
 *   <tr><td>PENDING</td><td>flow BIZ_SUCCESS, PAY_FAIL or CLOSED</td><td>PROCESSING, then send</td></tr>
 *   <tr><td>PENDING</td><td>flow in any other state, or missing</td><td>CLOSED</td></tr>
 *   <tr><td>PROCESSING, ABNORMAL</td><td>query NO_RECORD or retryable FAILED</td>
 *       <td>send the same number again, decide from that answer</td></tr>
 *   <tr><td>any sent</td><td>SUCCESS</td><td>SUCCESS</td></tr>
 *   <tr><td>any sent</td><td>definite non-retryable FAILED</td><td>FAIL</td></tr>
 *   <tr><td>PROCESSING</td><td>PROCESSING, UNKNOWN, retryable FAILED, NO_RECORD</td>
 *       <td>wait (backoff); ABNORMAL once the retry budget is spent</td></tr>
 *   <tr><td>ABNORMAL</td><td>the same</td><td>wait at the escalated interval</td></tr>
 * </table>
 */
public final class RefundOrderDecision {

  /** What a refund step decided. Pure data; the refund advancer carries it out. */
  public sealed interface Verdict {}

  /** CAS to {@code to}. */
  public record Move(RefundStatus to, String errorCode) implements Verdict {}

  /** Stay in the state; query again after backoff. */
  public record Wait(String errorCode) implements Verdict {}

  /** What to do after querying the wallet for a refund that was (or may have been) sent. */
  public enum NextCall {
    /** The query answered: decide from it. */
    DECIDE,
    /** No record, or a retryable refusal: send the very same refund number again. */
    RESEND_SAME_REFUND
  }

  private RefundOrderDecision() {}

  /**
   * PENDING: send only for a flow in a terminal state a refund kind accepts (BIZ_SUCCESS for
   * after-sales, PAY_FAIL or CLOSED for a late charge; creation checked the kind); anything else
   * closes the refund. The wallet refuses to refund a trade it never charged.
   */
  public static Verdict onPending(FlowStatus flowStatus) {
    if (flowStatus == null) {
      return new Move(RefundStatus.CLOSED, "FLOW_NOT_FOUND");
    }
    return switch (flowStatus) {
      case BIZ_SUCCESS, PAY_FAIL, CLOSED -> new Move(RefundStatus.PROCESSING, null);
      case WAIT_PAY, PAYING, PAYED, REFUNDING, REFUNDED ->
          new Move(RefundStatus.CLOSED, "FLOW_NOT_REFUNDABLE");
    };
  }

  public static NextCall afterQuery(WalletResult query) {
    return switch (query.certainty()) {
      case NO_RECORD -> NextCall.RESEND_SAME_REFUND;
      case DEFINITE_FAILURE -> query.retryable() ? NextCall.RESEND_SAME_REFUND : NextCall.DECIDE;
      case SUCCESS, PROCESSING, UNKNOWN -> NextCall.DECIDE;
    };
  }

  /**
   * Decides from a refund or query answer for a refund in PROCESSING or ABNORMAL. Timeouts and 5xx
   * never mean failure. {@code retryBudget}: reschedules in PROCESSING before ABNORMAL.
   */
  public static Verdict onResult(RefundOrder refund, WalletResult result, int retryBudget) {
    return switch (result.certainty()) {
      case SUCCESS -> new Move(RefundStatus.SUCCESS, null);
      case DEFINITE_FAILURE ->
          result.retryable()
              ? keepWaiting(refund, orDefault(result.errorCode(), "REFUND_FAILED"), retryBudget)
              : new Move(RefundStatus.FAIL, orDefault(result.errorCode(), "REFUND_FAILED_FINAL"));
      case PROCESSING -> keepWaiting(refund, "REFUND_PROCESSING", retryBudget);
      case UNKNOWN ->
          keepWaiting(refund, orDefault(result.errorCode(), "REFUND_UNKNOWN"), retryBudget);
      case NO_RECORD -> keepWaiting(refund, "REFUND_NO_RECORD", retryBudget);
    };
  }

  /** Not decided yet: wait, or hand PROCESSING over to manual review once the budget is spent. */
  private static Verdict keepWaiting(RefundOrder refund, String errorCode, int retryBudget) {
    return switch (refund.status()) {
      case PROCESSING ->
          refund.retryCount() + 1 > retryBudget
              ? new Move(RefundStatus.ABNORMAL, "RETRY_BUDGET_SPENT:" + errorCode)
              : new Wait(errorCode);
      case ABNORMAL -> new Wait(errorCode);
      case PENDING, SUCCESS, FAIL, CLOSED ->
          throw new IllegalStateException("no wallet answer is decided in " + refund.status());
    };
  }

  private static String orDefault(String code, String fallback) {
    return code == null ? fallback : code;
  }
}
