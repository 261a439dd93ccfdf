package dev.clearway.core.review;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask.TaskStatus;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;

/**
 * What a person may ask for a target other than a flow (flows: {@link CommandKind}). Each command
 * is decided here, from the target's state alone, before it is proposed and again under the lock of
 * its approval; it moves its target only along that target's legal edges.
 */
public enum OpsCommandKind {
  /**
   * An ABNORMAL refund is queried and, if the wallet has no record of it, sent again with the same
   * refund number, now instead of at the escalated interval. Its status stays ABNORMAL.
   */
  RETRY_REFUND(TargetKind.REFUND_ORDER),
  /** An ABNORMAL refund was executed outside the engine (the PSP's reference as evidence). */
  CONFIRM_REFUNDED(TargetKind.REFUND_ORDER),
  /**
   * An ABNORMAL refund is given up, with a reason, once the evidence shows no money moved: it ends
   * FAIL, which frees its amount. (CLOSED means nothing was ever sent, so it is not an exit of
   * ABNORMAL.)
   */
  CLOSE_REFUND(TargetKind.REFUND_ORDER),
  /** An attempt whose result the engine cannot learn was charged (the PSP's reference). */
  CONFIRM_ATTEMPT_SUCCEEDED(TargetKind.ATTEMPT),
  /** An attempt whose result the engine cannot learn definitely did not charge. */
  CONFIRM_ATTEMPT_FAILED(TargetKind.ATTEMPT),
  /**
   * The PSP charged another amount than the attempt asked (its task MANUAL AMOUNT_MISMATCH) and the
   * charge stands, with the reason in the command: the attempt SUCCEEDED, and its flow moves on
   * through its normal transition (PAYING to PAYED).
   */
  KEEP_MISMATCHED_CHARGE(TargetKind.ATTEMPT),
  /**
   * The PSP charged another amount than the attempt asked and the charge goes back: the attempt
   * ends FAILED (no failover; its flow moves PAYING to PAY_FAIL) and a compensation of the amount
   * the evidence shows is opened PENDING, which the compensation worker refunds by the attempt's
   * fixed compensation number.
   */
  REFUND_MISMATCHED_CHARGE(TargetKind.ATTEMPT),
  /**
   * The PSP charged another amount than the attempt asked and finance settles it outside the
   * engine: the attempt ends FAILED (its flow moves PAYING to PAY_FAIL) and a compensation of the
   * amount the evidence shows is recorded FINANCE (final).
   */
  MISMATCH_TO_FINANCE(TargetKind.ATTEMPT),
  /** A compensation waiting for a person is handed back to the worker, which refunds it. */
  REFUND_CHARGE(TargetKind.COMPENSATION),
  /** A compensation waiting for a person is settled by keeping the charge (with a reason). */
  KEEP_CHARGE(TargetKind.COMPENSATION),
  /** A compensation waiting for a person is settled by finance, outside the engine. */
  HAND_TO_FINANCE(TargetKind.COMPENSATION);

  private final TargetKind target;

  OpsCommandKind(TargetKind target) {
    this.target = target;
  }

  public TargetKind target() {
    return target;
  }

  /** The status the command moves its target to, or a refusal with a stable code. */
  public OpsVerdict check(TargetFacts facts) {
    if (facts.kind() != target) {
      return OpsVerdict.refused("wrong_target", name() + " applies to a " + target);
    }
    return switch (this) {
      case RETRY_REFUND -> abnormal(facts, RefundStatus.ABNORMAL);
      case CONFIRM_REFUNDED -> abnormal(facts, RefundStatus.SUCCESS);
      case CLOSE_REFUND -> abnormal(facts, RefundStatus.FAIL);
      case CONFIRM_ATTEMPT_SUCCEEDED -> unknowable(facts, AttemptStatus.SUCCEEDED);
      case CONFIRM_ATTEMPT_FAILED -> notMismatched(facts, AttemptStatus.FAILED);
      case KEEP_MISMATCHED_CHARGE -> mismatched(facts, AttemptStatus.SUCCEEDED);
      case REFUND_MISMATCHED_CHARGE, MISMATCH_TO_FINANCE -> mismatched(facts, AttemptStatus.FAILED);
      case REFUND_CHARGE -> waiting(facts, CompensationStatus.PENDING);
      case KEEP_CHARGE -> waiting(facts, CompensationStatus.KEPT);
      case HAND_TO_FINANCE -> waiting(facts, CompensationStatus.FINANCE);
    };
  }

  /** Only an ABNORMAL refund waits for a person; the others are the engine's or final. */
  private static OpsVerdict abnormal(TargetFacts facts, RefundStatus to) {
    RefundStatus from = ((TargetFacts.Refund) facts).refund();
    if (from != RefundStatus.ABNORMAL) {
      return OpsVerdict.refused(
          "refund_not_abnormal", "the refund is " + from + "; only ABNORMAL waits for a person");
    }
    if (to != from && !RefundTransitions.isLegal(from, to)) {
      return OpsVerdict.refused("illegal_transition", from + " cannot move to " + to);
    }
    return OpsVerdict.allowed(to.name());
  }

  /**
   * An attempt a person may settle: not final, and either handed to a person (its task MANUAL) or
   * of a result nobody could learn (UNKNOWN).
   */
  private static OpsVerdict unknowable(TargetFacts facts, AttemptStatus to) {
    TargetFacts.Attempt a = (TargetFacts.Attempt) facts;
    if (a.attempt().isFinal()) {
      return OpsVerdict.refused("attempt_final", "the attempt is final (" + a.attempt() + ")");
    }
    if (a.task() != TaskStatus.MANUAL && a.attempt() != AttemptStatus.UNKNOWN) {
      return OpsVerdict.refused(
          "attempt_not_waiting",
          "the attempt is " + a.attempt() + " and its recovery is automatic (" + a.task() + ")");
    }
    return OpsVerdict.allowed(to.name());
  }

  /**
   * An attempt the PSP charged for another amount cannot be confirmed failed: the money moved. Its
   * exits are the mismatch commands (keep, refund, hand to finance).
   */
  private static OpsVerdict notMismatched(TargetFacts facts, AttemptStatus to) {
    OpsVerdict verdict = unknowable(facts, to);
    if (verdict.isAllowed() && ((TargetFacts.Attempt) facts).amountMismatch()) {
      return OpsVerdict.refused(
          "amount_mismatch",
          "the PSP charged another amount than the attempt asked: keep, refund or hand the charge"
              + " to finance");
    }
    return verdict;
  }

  /** Only an attempt whose task a charge of another amount handed to a person. */
  private static OpsVerdict mismatched(TargetFacts facts, AttemptStatus to) {
    OpsVerdict verdict = unknowable(facts, to);
    if (verdict.isAllowed() && !((TargetFacts.Attempt) facts).amountMismatch()) {
      return OpsVerdict.refused(
          "not_amount_mismatch",
          "the attempt's task is not waiting on a charge of another amount (AMOUNT_MISMATCH)");
    }
    return verdict;
  }

  /**
   * Whether the command names the amount the PSP charged (the compensation's amount): required for
   * these, refused for every other.
   */
  public boolean takesAmount() {
    return this == REFUND_MISMATCHED_CHARGE || this == MISMATCH_TO_FINANCE;
  }

  /** Only a MANUAL compensation waits for a person. */
  private static OpsVerdict waiting(TargetFacts facts, CompensationStatus to) {
    CompensationStatus from = ((TargetFacts.Compensation) facts).compensation();
    if (from != CompensationStatus.MANUAL) {
      return OpsVerdict.refused(
          from.isSettled() ? "compensation_settled" : "compensation_not_manual",
          "the compensation is " + from + "; only MANUAL waits for a person");
    }
    return OpsVerdict.allowed(to.name());
  }
}
