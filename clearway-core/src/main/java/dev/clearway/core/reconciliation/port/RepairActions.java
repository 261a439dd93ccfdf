package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.decision.RepairCommand;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import java.time.Instant;

/**
 * Applies an automatic repair through the engines' own transitions: each command names the row and
 * version it was decided on and is written as a compare-and-set from that state, with the statement
 * as evidence. Nothing is overwritten with the PSP's value.
 */
public interface RepairActions {

  RepairOutcome apply(RepairCommand command, Instant now);
}
