package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.DifferenceClass;
import dev.clearway.core.reconciliation.domain.RepairKind;
import dev.clearway.core.reconciliation.domain.RepairOutcome;

/** What reconciliation tells the metrics; every method is a count, none decides anything. */
public interface ReconciliationEvents {
  /** A difference recorded for the first time, with the amount it is about (minor units). */
  default void differenceFound(DifferenceClass kind, long amountMinor) {}

  /** An automatic repair applied (or found done, lost, refused). */
  default void repaired(RepairKind kind, RepairOutcome.Result result) {}

  /** A difference handed to a person. */
  default void ticketOpened(DifferenceClass kind) {}

  /** A statement file refused at import (hash, malformed line). */
  default void importRefused(String account, String reason) {}

  /** A run of one account-day ended; {@code outcome} as the job reports it. */
  default void runEnded(String account, String outcome) {}

  ReconciliationEvents NONE = new ReconciliationEvents() {};
}
