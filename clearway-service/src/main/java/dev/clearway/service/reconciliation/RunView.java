package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import java.time.Instant;
import java.time.LocalDate;

/** One reconciliation run of an account-day, without its lease owner's token. */
public record RunView(
    long id,
    String account,
    LocalDate day,
    Long fileId,
    String status,
    ReconCounts counts,
    String error,
    Instant startedAt,
    Instant finishedAt) {

  public static RunView of(ReconRun run) {
    return new RunView(
        run.id(),
        run.account(),
        run.day(),
        run.fileId(),
        run.status().name(),
        run.counts(),
        run.error(),
        run.startedAt(),
        run.finishedAt());
  }
}
