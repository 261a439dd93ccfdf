package dev.clearway.core.reconciliation.port;

import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/** The runs of each account-day. One RUNNING run per account-day at a time, held by a lease. */
public interface ReconRuns {

  /**
   * Starts a run of the account-day under {@code owner}'s lease, or takes over a RUNNING one whose
   * lease expired; empty when another owner holds a live lease.
   */
  Optional<ReconRun> start(
      String account, LocalDate day, Long fileId, String owner, Instant leaseUntil, Instant now);

  /** Extends the lease; false when the run is no longer this owner's. */
  boolean renew(long runId, String owner, Instant leaseUntil);

  /** Ends the run DONE with its counts; false when the lease was lost. */
  boolean finish(long runId, String owner, ReconCounts counts, Instant now);

  /** Ends the run FAILED with the reason; false when the lease was lost. */
  boolean fail(long runId, String owner, String error, Instant now);

  /** The latest run of each account, newest first. */
  List<ReconRun> latestPerAccount();

  Optional<ReconRun> find(long runId);
}
