package dev.clearway.core.reconciliation.domain;

import java.time.Instant;
import java.util.Objects;

/**
 * A maker/checker command on a difference ticket, as stored. It pins the difference's version at
 * proposal; an approval applies it only while the difference is still at that version.
 *
 * @param state PROPOSED, APPLIED, REJECTED or FAILED
 * @param result what the decision did (APPLIED, DIFFERENCE_CHANGED, or the rejection's reason)
 */
public record TicketCommand(
    long id,
    long differenceId,
    TicketKind kind,
    long expectedVersion,
    String operatorId,
    String ticket,
    String reason,
    String evidence,
    String state,
    String approverId,
    String result,
    Instant createdAt,
    Instant decidedAt) {

  public TicketCommand {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(operatorId, "operatorId");
    Objects.requireNonNull(state, "state");
  }
}
