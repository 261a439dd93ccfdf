package dev.clearway.core.reconciliation.decision;

import static dev.clearway.core.flow.domain.FlowStatus.BIZ_SUCCESS;
import static dev.clearway.core.flow.domain.FlowStatus.PAYED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDED;
import static dev.clearway.core.flow.domain.FlowStatus.REFUNDING;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.reconciliation.decision.RepairCommand.ConfirmBusinessSuccess;
import dev.clearway.core.reconciliation.decision.RepairCommand.NoRepair;
import dev.clearway.core.reconciliation.decision.RepairCommand.OpenTicket;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundLateCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.RefundUnattributedCharge;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleAttemptPaid;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleFlowRefunded;
import dev.clearway.core.reconciliation.decision.RepairCommand.SettleRefundSucceeded;
import dev.clearway.core.reconciliation.decision.RepairCommand.Wait;
import dev.clearway.core.reconciliation.domain.Difference;
import dev.clearway.core.reconciliation.domain.LocalFact;
import dev.clearway.core.refund.domain.RefundKind;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.domain.RefundTransitions;
import java.time.Instant;

/**
 * Decides the repair of one difference from the local row as read again just before: an automatic
 * command only when that row is in a state the command's transition is legal from, else a ticket
 * (or nothing, when the row already moved past the repair on its own).
 */
public final class RepairDecision {
  private RepairDecision() {}

  /**
   * @param current the local row the difference is about, read again; null when there is none
   */
  public static RepairCommand decide(Difference d, LocalFact current, Instant now) {
    if (current == null && d.kind().repairKind().isAutomatic()) {
      return ticket(d, "the local row is gone");
    }
    return switch (d.kind()) {
      case CHARGED_LOCAL_PAYING -> settlePaid(d, current);
      case LATE_CHARGE -> refundLateCharge(d, current);
      case BUSINESS_DONE_UNCONFIRMED -> confirmBusiness(d, current);
      case REFUND_SETTLED_LOCAL_PENDING -> settleRefund(d, current);
      case DUPLICATE_CHARGE -> refundUnattributed(d, current);
      case REFUND_NOT_AT_PSP, MISSING_FROM_STATEMENT, BIZ_SUCCESS_WITHOUT_CHARGE ->
          now.isBefore(d.actionableAt())
              ? new Wait(d.kind(), d.actionableAt(), d.detail())
              : ticket(d, d.detail() + " after the settlement window");
      case ATTRIBUTION_UNCLEAR,
          AMOUNT_MISMATCH,
          CURRENCY_MISMATCH,
          UNKNOWN_STATEMENT_LINE,
          FEE_MISMATCH,
          ADJUSTMENT_TO_REVIEW ->
          ticket(d, d.detail());
    };
  }

  private static RepairCommand settlePaid(Difference d, LocalFact current) {
    if (Transitions.isSameOrLater(PAYED, current.flowStatus())) {
      return new NoRepair(d.kind(), "flow already " + current.flowStatus());
    }
    boolean attemptFailed =
        current.attempt() != null && current.attempt().status() == AttemptStatus.FAILED;
    if (!Transitions.isLegal(current.flowStatus(), PAYED) || attemptFailed) {
      return illegal(d, current);
    }
    return new SettleAttemptPaid(
        current.flowId(),
        current.flowVersion(),
        current.attempt() == null ? null : current.attempt().id(),
        current.attempt() == null ? null : current.attempt().version(),
        StatementEvidence.of(d.statement()));
  }

  private static RepairCommand refundLateCharge(Difference d, LocalFact current) {
    if (current.compensation().exists()) {
      return new NoRepair(d.kind(), "a refund of the charge is already " + current.compensation());
    }
    if (!RefundKind.LATE_CHARGE.allows(current.flowStatus())) {
      return illegal(d, current);
    }
    return new RefundLateCharge(
        current.flowId(),
        current.tradeOrderNo(),
        d.statement().amountMinor(),
        d.statement().currency(),
        StatementEvidence.of(d.statement()));
  }

  private static RepairCommand confirmBusiness(Difference d, LocalFact current) {
    if (current.flowStatus() == BIZ_SUCCESS) {
      return new NoRepair(d.kind(), "flow already BIZ_SUCCESS");
    }
    if (!Transitions.isLegal(current.flowStatus(), BIZ_SUCCESS)
        || d.business() == null
        || !d.business().attributes(current.tradeOrderNo())) {
      return illegal(d, current);
    }
    return new ConfirmBusinessSuccess(
        current.flowId(), current.flowVersion(), current.tradeOrderNo());
  }

  private static RepairCommand settleRefund(Difference d, LocalFact current) {
    if (current.refund() != null) {
      RefundStatus status = current.refund().status();
      if (status == RefundStatus.SUCCESS) {
        return new NoRepair(d.kind(), "refund already SUCCESS");
      }
      if (!RefundTransitions.isLegal(status, RefundStatus.SUCCESS)) {
        return ticket(d, "PSP refunded, local refund " + status + " cannot become SUCCESS");
      }
      return new SettleRefundSucceeded(
          current.refund().id(), current.refund().version(), StatementEvidence.of(d.statement()));
    }
    if (current.flowStatus() == REFUNDED) {
      return new NoRepair(d.kind(), "flow already REFUNDED");
    }
    if (!Transitions.isLegal(current.flowStatus(), REFUNDED)) {
      return illegal(d, current);
    }
    return new SettleFlowRefunded(
        current.flowId(), current.flowVersion(), StatementEvidence.of(d.statement()));
  }

  private static RepairCommand refundUnattributed(Difference d, LocalFact current) {
    boolean siblingUsed =
        d.sibling() != null
            && d.business() != null
            && d.business().attributes(d.sibling().tradeOrderNo())
            && d.sibling().goal().equals(current.goal());
    if (!siblingUsed
        || current.flowStatus() != PAYED
        || !Transitions.isLegal(current.flowStatus(), REFUNDING)) {
      return illegal(d, current);
    }
    return new RefundUnattributedCharge(
        current.flowId(),
        current.flowVersion(),
        current.tradeOrderNo(),
        current.flowRefundOrderNo(),
        d.sibling().tradeOrderNo());
  }

  private static OpenTicket illegal(Difference d, LocalFact current) {
    return ticket(d, d.detail() + "; no legal repair from flow " + current.flowStatus());
  }

  private static OpenTicket ticket(Difference d, String reason) {
    return new OpenTicket(d.kind(), reason);
  }
}
