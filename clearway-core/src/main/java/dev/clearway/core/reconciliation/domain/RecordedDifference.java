package dev.clearway.core.reconciliation.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * A difference as stored: found once per (account, class, identity), whatever the number of runs
 * that see it again.
 *
 * @param identity the stable key the difference is about (trade order no, refund order no, or the
 *     statement file and line for a line no local row knows)
 * @param flowId the local flow, or null when none matched
 * @param statementFileId the file of the statement line, or null when the statement had none
 */
public record RecordedDifference(
    long id,
    String account,
    LocalDate statementDay,
    DifferenceClass kind,
    String identity,
    String tradeOrderNo,
    String refundOrderNo,
    Long flowId,
    Long statementFileId,
    Long statementLineNo,
    Long statementAmountMinor,
    Long localAmountMinor,
    String currency,
    MatchConfidence confidence,
    DifferenceState state,
    RepairKind repairKind,
    String detail,
    Instant actionableAt,
    long version,
    Instant createdAt,
    Instant updatedAt) {

  public RecordedDifference {
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(statementDay, "statementDay");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(confidence, "confidence");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(repairKind, "repairKind");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(actionableAt, "actionableAt");
  }
}
