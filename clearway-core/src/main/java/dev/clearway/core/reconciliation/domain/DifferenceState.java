package dev.clearway.core.reconciliation.domain;

/**
 * Where a recorded difference stands. Every move is one row of {@link #canMoveTo}; RESOLVED is
 * final.
 *
 * <ul>
 *   <li>OPEN: found by the repair pass (due by {@code actionable_at}); decided by the local row
 *       read again and the statement lines in force; waits until the account's settlement window
 *       has passed; exits to AUTO_REPAIRING, RESOLVED (the row moved on by itself) or NEEDS_PERSON.
 *   <li>AUTO_REPAIRING: found by the repair pass when its lease expired; decided by the local row
 *       read again (the repair is idempotent); retried after the lease; exits to RESOLVED or
 *       NEEDS_PERSON.
 *   <li>NEEDS_PERSON: found by a person (console, {@code /ops/reconciliation}, the oldest-age
 *       metric); decided by the evidence in the ticket; no backoff; exits to RESOLVED by an
 *       approved maker/checker command.
 * </ul>
 */
public enum DifferenceState {
  OPEN,
  AUTO_REPAIRING,
  NEEDS_PERSON,
  RESOLVED;

  public boolean isFinal() {
    return this == RESOLVED;
  }

  public boolean canMoveTo(DifferenceState next) {
    return switch (this) {
      case OPEN -> next == AUTO_REPAIRING || next == NEEDS_PERSON || next == RESOLVED;
      case AUTO_REPAIRING -> next == RESOLVED || next == NEEDS_PERSON;
      case NEEDS_PERSON -> next == RESOLVED;
      case RESOLVED -> false;
    };
  }
}
