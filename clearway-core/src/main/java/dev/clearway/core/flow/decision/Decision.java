package dev.clearway.core.flow.decision;

import dev.clearway.core.flow.domain.FlowStatus;

/** What a stage decided from the row and the facts. Pure data; the advancer carries it out. */
public sealed interface Decision {

  /** CAS to {@code to}. */
  record Move(FlowStatus to, String errorCode) implements Decision {}

  /**
   * Stay in the state; retry after backoff. {@code boundedByDeadline} marks a wait whose exit is
   * guaranteed by the business deadline (the business is not done yet, the deadline is ahead): it
   * never spends the retry budget, so a long deadline does not page a person.
   */
  record Wait(String errorCode, boolean boundedByDeadline) implements Decision {
    public Wait(String errorCode) {
      this(errorCode, false);
    }
  }

  /** Stay in the state; a person must look, retries continue at the escalated frequency. */
  record Escalate(String errorCode) implements Decision {}

  /** Facts contradict each other: stop automatic processing and alert. */
  record Freeze(String reason) implements Decision {}

  static Decision move(FlowStatus to) {
    return new Move(to, null);
  }

  static Decision move(FlowStatus to, String errorCode) {
    return new Move(to, errorCode);
  }

  static Decision waitFor(String errorCode) {
    return new Wait(errorCode, false);
  }

  static Decision waitForDeadline(String errorCode) {
    return new Wait(errorCode, true);
  }
}
