package dev.clearway.core.reconciliation.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * One difference found, with the evidence of every side that took part. A side that was not
 * involved, or had nothing, is null.
 *
 * @param statement the statement line, or null when the statement has none
 * @param local the local row the difference is about, or null when none matched
 * @param sibling the other attempt of the same goal, for {@link DifferenceClass#DUPLICATE_CHARGE}
 * @param business what the business says of the goal, when it was asked
 * @param actionableAt when a person (or the repair) should act; before it the PSP may still settle
 * @param detail a short plain statement of the disagreement, never secrets
 */
public record Difference(
    DifferenceClass kind,
    StatementFact statement,
    LocalFact local,
    LocalFact sibling,
    BusinessFact business,
    Instant actionableAt,
    String detail) {

  public Difference {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(actionableAt, "actionableAt");
    Objects.requireNonNull(detail, "detail");
    if (statement == null && local == null) {
      throw new IllegalArgumentException("a difference needs a statement line or a local row");
    }
  }

  /** A difference between one statement line and one local row, actionable at once. */
  public static Difference between(
      DifferenceClass kind, StatementFact statement, LocalFact local, String detail) {
    return new Difference(kind, statement, local, null, null, statement.at(), detail);
  }

  /** The trade order the difference is about, from whichever side has it. */
  public String tradeOrderNo() {
    return local != null ? local.tradeOrderNo() : statement.tradeOrderNo();
  }
}
