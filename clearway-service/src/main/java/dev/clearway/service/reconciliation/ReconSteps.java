package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.statement.StatementFileRecord;
import java.time.LocalDate;
import java.util.Optional;

/**
 * The three steps of reconciling one account-day, as the service runs them: fetch and import the
 * statement, reconcile the day, let the repair pass act on what is due.
 */
public final class ReconSteps {
  private ReconSteps() {}

  /** Downloads and imports the statement of an account-day. */
  @FunctionalInterface
  public interface Fetch {
    /**
     * The file on record after the import (IMPORTED, or REFUSED with its line and reason); empty
     * when this process has no statement source for the account.
     *
     * @throws RuntimeException when the download failed; nothing was imported
     */
    Optional<StatementFileRecord> fetch(String account, LocalDate day);

    /** No statement source for any account (a deployment without PSP statements). */
    Fetch NONE = (account, day) -> Optional.empty();
  }

  /** Reconciles an account-day against the statement in force, under the run's lease. */
  @FunctionalInterface
  public interface Reconcile {
    /** The run; empty when another node holds the account-day's lease. */
    Optional<ReconRun> reconcile(String account, LocalDate day);
  }

  /** One round of the repair pass over the differences that are due. */
  @FunctionalInterface
  public interface Repair {
    /** How many differences the round moved. */
    int runOnce();
  }
}
