package dev.clearway.service.reconciliation;

import dev.clearway.core.statement.StatementFileRecord;
import java.time.LocalDate;

/**
 * What a run on demand did: the statement import (null when the account has no statement source),
 * the reconciliation run (null when another node holds the account-day), and how many differences
 * the repair pass moved.
 *
 * @param importError why the download failed, when it did (nothing was imported)
 */
public record RunOutcome(
    String account,
    LocalDate day,
    ImportView statement,
    String importError,
    RunView run,
    int repaired) {

  /** A statement file on record, without its hashes. */
  public record ImportView(
      long fileId, String status, long lines, Long refusedLine, String refusedReason) {

    static ImportView of(StatementFileRecord r) {
      boolean refused = r.status() == StatementFileRecord.Status.REFUSED;
      return new ImportView(
          r.id(),
          r.status().name(),
          r.lineCount(),
          refused ? r.refusedLine() : null,
          refused ? r.refusedReason() : null);
    }
  }
}
