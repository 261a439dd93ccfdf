package dev.clearway.core.reconciliation.domain;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;

/**
 * One reconciliation run of one account-day, held by a lease so that one node runs it.
 *
 * @param fileId the statement file in force that the run reads, or null when none was imported
 */
public record ReconRun(
    long id,
    String account,
    LocalDate day,
    Long fileId,
    ReconRunStatus status,
    String leaseOwner,
    Instant leaseUntil,
    ReconCounts counts,
    String error,
    Instant startedAt,
    Instant finishedAt) {

  public ReconRun {
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(day, "day");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(counts, "counts");
    Objects.requireNonNull(startedAt, "startedAt");
  }
}
