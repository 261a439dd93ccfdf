package dev.clearway.core.reconciliation.domain;

import java.util.Objects;

/** What applying one repair command did. */
public record RepairOutcome(Result result, String detail) {

  public enum Result {
    /** The transition was written. */
    APPLIED,
    /** The row had already moved to where the repair would take it: nothing to do. */
    ALREADY_DONE,
    /** A compare-and-set found 0 rows (someone else moved the row): decide again later. */
    LOST_RACE,
    /** The repair cannot be applied; a person must look. */
    REFUSED
  }

  public RepairOutcome {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(detail, "detail");
  }

  public static RepairOutcome applied(String detail) {
    return new RepairOutcome(Result.APPLIED, detail);
  }

  public static RepairOutcome alreadyDone(String detail) {
    return new RepairOutcome(Result.ALREADY_DONE, detail);
  }

  public static RepairOutcome lostRace(String detail) {
    return new RepairOutcome(Result.LOST_RACE, detail);
  }

  public static RepairOutcome refused(String detail) {
    return new RepairOutcome(Result.REFUSED, detail);
  }
}
