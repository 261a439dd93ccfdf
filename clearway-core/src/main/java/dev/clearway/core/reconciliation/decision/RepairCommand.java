package dev.clearway.core.reconciliation.decision;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import java.time.Instant;

/**
 * What to do about one difference. Every automatic command names the row and the version it was
 * decided on: it is applied through that row's normal transition (a CAS on the version), never by
 * writing the PSP's value over the local state.
 */
public sealed interface RepairCommand {

  /** PAYING to PAYED for the flow, its attempt settled SUCCEEDED with the statement as evidence. */
  record SettleAttemptPaid(
      long flowId,
      long flowVersion,
      Long attemptId,
      Long attemptVersion,
      StatementEvidence evidence)
      implements RepairCommand {}

  /** A LATE_CHARGE refund order for a charge on a flow ended without payment. */
  record RefundLateCharge(
      long flowId,
      String tradeOrderNo,
      long amountMinor,
      String currency,
      StatementEvidence evidence)
      implements RepairCommand {}

  /** PAYED to BIZ_SUCCESS: the business named this trade order. */
  record ConfirmBusinessSuccess(long flowId, long flowVersion, String tradeOrderNo)
      implements RepairCommand {}

  /** The refund order settled SUCCESS with the statement as evidence. */
  record SettleRefundSucceeded(long refundOrderId, long version, StatementEvidence evidence)
      implements RepairCommand {}

  /** REFUNDING to REFUNDED for the flow's own compensation refund. */
  record SettleFlowRefunded(long flowId, long flowVersion, StatementEvidence evidence)
      implements RepairCommand {}

  /** PAYED to REFUNDING: the charge the business did not use goes back under the flow's number. */
  record RefundUnattributedCharge(
      long flowId,
      long flowVersion,
      String tradeOrderNo,
      String refundOrderNo,
      String attributedTradeOrderNo)
      implements RepairCommand {}

  /** Look again at {@code until}: the PSP may still show the movement. */
  record Wait(DifferenceClass kind, Instant until, String reason) implements RepairCommand {}

  /** A person decides; nothing is changed. */
  record OpenTicket(DifferenceClass kind, String reason) implements RepairCommand {}

  /** The fresh row already shows the repair done (its own engine got there first). */
  record NoRepair(DifferenceClass kind, String reason) implements RepairCommand {}
}
