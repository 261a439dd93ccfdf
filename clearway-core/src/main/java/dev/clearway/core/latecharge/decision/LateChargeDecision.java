package dev.clearway.core.latecharge.decision;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;

/**
 * The late-charge stages: pure functions of the check and the facts. Only the wallet's own answer
 * decides whether a charge exists; a callback or the sweep only raise the question.
 *
 * <table>
 *   <tr><th>state</th><th>fact</th><th>decision</th></tr>
 *   <tr><td>PENDING, MANUAL</td><td>flow not PAY_FAIL or CLOSED</td><td>NOT_APPLICABLE</td></tr>
 *   <tr><td>PENDING, MANUAL</td><td>query SUCCESS</td><td>CHARGE_CONFIRMED</td></tr>
 *   <tr><td>PENDING, MANUAL</td><td>query definite failure or no record</td><td>NO_CHARGE</td></tr>
 *   <tr><td>PENDING</td><td>query PROCESSING or UNKNOWN</td>
 *       <td>wait (backoff); MANUAL once the retry budget is spent</td></tr>
 *   <tr><td>MANUAL</td><td>query PROCESSING or UNKNOWN</td><td>wait at the escalated interval</td></tr>
 *   <tr><td>CHARGE_CONFIRMED</td><td>the refund order was created or already existed</td>
 *       <td>REFUND_REQUESTED</td></tr>
 *   <tr><td>CHARGE_CONFIRMED</td><td>the refund store refused the request</td><td>MANUAL
 *       (NOT_APPLICABLE if the flow is not ended unpaid)</td></tr>
 * </table>
 */
public final class LateChargeDecision {

  /** What a check step decided. Pure data; the checker carries it out. */
  public sealed interface Verdict {}

  /** Ask the wallet for the order. */
  public record Ask() implements Verdict {}

  /** CAS to {@code to}; {@code refundId} is set only when the refund order exists. */
  public record Move(LateChargeStatus to, String errorCode, Long refundId) implements Verdict {
    static Move to(LateChargeStatus to, String errorCode) {
      return new Move(to, errorCode, null);
    }

    static Move refundRequested(long refundId) {
      return new Move(LateChargeStatus.REFUND_REQUESTED, null, refundId);
    }
  }

  /** Stay in the state; ask again after backoff. */
  public record Wait(String errorCode) implements Verdict {}

  /** What the sweep makes of the wallet's answer for an ended order. */
  public enum SweepFinding {
    /** The wallet definitely holds no charge: nothing to record. */
    NO_CHARGE,
    /** A charge, or no definite answer: record a suspicion, the checks take it from there. */
    SUSPECT
  }

  private LateChargeDecision() {}

  /** A late charge exists only on a flow that ended without payment (both states are terminal). */
  public static boolean endedUnpaid(FlowStatus status) {
    if (status == null) {
      return false;
    }
    return switch (status) {
      case PAY_FAIL, CLOSED -> true;
      case WAIT_PAY, PAYING, PAYED, BIZ_SUCCESS, REFUNDING, REFUNDED -> false;
    };
  }

  /** PENDING or MANUAL, before any call: ask the wallet only about a flow that ended unpaid. */
  public static Verdict onFlow(FlowStatus flowStatus) {
    return endedUnpaid(flowStatus)
        ? new Ask()
        : Move.to(LateChargeStatus.NOT_APPLICABLE, "FLOW_NOT_ENDED_UNPAID");
  }

  /** PENDING or MANUAL, after the wallet answered the query by trade order number. */
  public static Verdict afterQuery(LateChargeCheck check, WalletResult result, int retryBudget) {
    return switch (result.certainty()) {
      case SUCCESS -> Move.to(LateChargeStatus.CHARGE_CONFIRMED, null);
      case DEFINITE_FAILURE -> Move.to(LateChargeStatus.NO_CHARGE, code(result, "FAILED"));
      case NO_RECORD -> Move.to(LateChargeStatus.NO_CHARGE, "NO_RECORD");
      case PROCESSING, UNKNOWN ->
          unknowable(check, code(result, result.certainty().name()), retryBudget);
    };
  }

  private static Verdict unknowable(LateChargeCheck check, String errorCode, int retryBudget) {
    return switch (check.status()) {
      case PENDING ->
          check.retryCount() >= retryBudget
              ? Move.to(LateChargeStatus.MANUAL, errorCode)
              : new Wait(errorCode);
      case MANUAL -> new Wait(errorCode);
      case CHARGE_CONFIRMED, NO_CHARGE, REFUND_REQUESTED, NOT_APPLICABLE ->
          throw new IllegalStateException("no query is made in " + check.status());
    };
  }

  /** CHARGE_CONFIRMED, after the LATE_CHARGE refund was requested under the flow's fixed key. */
  public static Verdict afterRefundRequest(CreateOutcome outcome) {
    if (outcome instanceof CreateOutcome.Created created) {
      return Move.refundRequested(created.refund().id());
    }
    if (outcome instanceof CreateOutcome.Replayed replayed) {
      return Move.refundRequested(replayed.refund().id());
    }
    if (outcome instanceof CreateOutcome.NotAllowed) {
      return Move.to(LateChargeStatus.NOT_APPLICABLE, "FLOW_NOT_ENDED_UNPAID");
    }
    if (outcome instanceof CreateOutcome.ExceedsPayment) {
      return Move.to(LateChargeStatus.MANUAL, "REFUND_EXCEEDS_PAYMENT");
    }
    if (outcome instanceof CreateOutcome.KeyReused) {
      return Move.to(LateChargeStatus.MANUAL, "REFUND_KEY_REUSED");
    }
    if (outcome instanceof CreateOutcome.FlowNotFound) {
      return Move.to(LateChargeStatus.MANUAL, "FLOW_NOT_FOUND");
    }
    throw new IllegalStateException("unknown refund outcome " + outcome);
  }

  /** The sweep records a suspicion for every answer except a definite "no charge". */
  public static SweepFinding sweepFinding(WalletResult result) {
    return switch (result.certainty()) {
      case DEFINITE_FAILURE, NO_RECORD -> SweepFinding.NO_CHARGE;
      case SUCCESS, PROCESSING, UNKNOWN -> SweepFinding.SUSPECT;
    };
  }

  private static String code(WalletResult result, String fallback) {
    return result.errorCode() != null ? result.errorCode() : fallback;
  }
}
