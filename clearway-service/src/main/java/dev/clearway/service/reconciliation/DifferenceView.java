package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.RecordedDifference;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;

/**
 * One difference as people read it: both sides' amounts, how sure the match is, where it stands,
 * what must be confirmed before it is repaired, and how long ago it was found.
 */
public record DifferenceView(
    long id,
    String account,
    LocalDate statementDay,
    String kind,
    String identity,
    String tradeOrderNo,
    String refundOrderNo,
    Long flowId,
    Long statementFileId,
    Long statementLineNo,
    Long statementAmountMinor,
    Long localAmountMinor,
    String currency,
    String confidence,
    String state,
    String repairKind,
    String mustConfirm,
    String detail,
    Instant actionableAt,
    long version,
    Instant createdAt,
    Instant updatedAt,
    long ageSeconds) {

  public static DifferenceView of(RecordedDifference d, Instant now) {
    Instant found = d.createdAt() == null ? now : d.createdAt();
    return new DifferenceView(
        d.id(),
        d.account(),
        d.statementDay(),
        d.kind().name(),
        d.identity(),
        d.tradeOrderNo(),
        d.refundOrderNo(),
        d.flowId(),
        d.statementFileId(),
        d.statementLineNo(),
        d.statementAmountMinor(),
        d.localAmountMinor(),
        d.currency(),
        d.confidence().name(),
        d.state().name(),
        d.repairKind().name(),
        d.kind().mustConfirm(),
        d.detail(),
        d.actionableAt(),
        d.version(),
        d.createdAt(),
        d.updatedAt(),
        Math.max(0, Duration.between(found, now).toSeconds()));
  }
}
