package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.TicketCommand;
import dev.clearway.core.reconciliation.domain.TicketKind;
import java.time.Instant;

/**
 * Maker/checker commands on the differences that wait for a person. An operator proposes; a
 * different person with the approver role approves or rejects. An approval moves the difference
 * NEEDS_PERSON to RESOLVED by compare-and-set on the version proposed, in the same transaction as
 * the command's new state and the audit row; a difference that moved since fails the command and
 * changes nothing else. A refusal writes nothing.
 */
public interface TicketCommands {

  /** What a person proposes. Text fields are required and bounded (64, 500, 2000 characters). */
  record Proposal(
      long differenceId,
      TicketKind kind,
      String operator,
      String ticket,
      String reason,
      String evidence) {}

  /** The outcome of a propose, approve or reject. */
  sealed interface Result {
    /** The command as it now stands (an approval of a moved difference answers it FAILED). */
    record Done(TicketCommand command) implements Result {}

    /** Nothing was written; {@code code} is stable, {@code message} is for people. */
    record Refused(String code, String message) implements Result {}

    /** No such difference or command. */
    record NotFound() implements Result {}
  }

  Result propose(Proposal proposal, Instant now);

  Result approve(long commandId, String approver, Instant now);

  Result reject(long commandId, String approver, String reason, Instant now);
}
