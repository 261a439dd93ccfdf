package dev.clearway.core.statement;

import java.time.Instant;
import java.time.LocalDate;

/**
 * One statement file on record. Files are never changed after import except to be marked superseded
 * by a newer valid file of the same account and day.
 *
 * @param refusedLine the 1-based line that made the file refused, 0 for a file-level reason
 */
public record StatementFileRecord(
    long id,
    String accountRef,
    LocalDate day,
    StatementFormat format,
    String sha256,
    String expectedHash,
    Status status,
    Long supersededBy,
    long lineCount,
    String refusedReason,
    long refusedLine,
    Instant importedAt) {

  /** Where a file stands. */
  public enum Status {
    IMPORTED,
    REFUSED,
    SUPERSEDED
  }
}
