package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.decision.DayBoundary;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.statement.StatementFileRecord;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * Reconciles one account-day under a leased run: the statement file in force for the day, every
 * line of it against the local side and the business, every local movement of the day (read over
 * the date window) against what the statements show; each difference recorded once with how sure
 * its match is, and the settlement status of each matched charge. A day without a file ends with
 * zero counts and says so; a failure ends the run FAILED with its reason (the next run retries).
 */
public final class ReconciliationJob {

  /** How a run ended. */
  public enum Outcome {
    DONE,
    /** No statement file is in force for the day: nothing to reconcile yet. */
    NO_STATEMENT,
    /** Another node holds the day's run. */
    BUSY,
    /** The run's lease was lost before it finished: the node that took it over finishes it. */
    LEASE_LOST,
    FAILED
  }

  /** What one call did. {@code runId} is null when no run was started (BUSY). */
  public record Result(Outcome outcome, Long runId, ReconCounts counts, String detail) {
    public Result {
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(counts, "counts");
      Objects.requireNonNull(detail, "detail");
    }
  }

  private final ReconPorts ports;
  private final ReconConfig config;
  private final Clock clock;

  public ReconciliationJob(ReconPorts ports, ReconConfig config, Clock clock) {
    this.ports = ports;
    this.config = config;
    this.clock = clock;
  }

  /** Runs the account-day once; safe to call again (a second run records nothing new). */
  public Result run(String account, LocalDate day) {
    Instant now = clock.instant();
    Optional<StatementFileRecord> file = ports.statements().current(account, day);
    Long fileId = file.map(StatementFileRecord::id).orElse(null);
    Optional<ReconRun> started =
        ports.runs().start(account, day, fileId, config.owner(), now.plus(config.lease()), now);
    if (started.isEmpty()) {
      return ended(
          account, new Result(Outcome.BUSY, null, ReconCounts.none(), "run held by another node"));
    }
    long runId = started.get().id();
    try {
      return ended(account, reconcile(runId, account, day, fileId));
    } catch (DayRun.LeaseLost lost) {
      return ended(
          account, new Result(Outcome.LEASE_LOST, runId, ReconCounts.none(), lost.getMessage()));
    } catch (RuntimeException e) {
      String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
      ports.runs().fail(runId, config.owner(), reason, clock.instant());
      return ended(account, new Result(Outcome.FAILED, runId, ReconCounts.none(), reason));
    }
  }

  private Result reconcile(long runId, String account, LocalDate day, Long fileId) {
    Optional<AccountTerms> terms = ports.terms().terms(account);
    if (terms.isEmpty()) {
      throw new IllegalStateException("no reconciliation terms for account " + account);
    }
    if (fileId == null) {
      finish(runId, ReconCounts.none());
      return new Result(
          Outcome.NO_STATEMENT, runId, ReconCounts.none(), "no statement file in force for " + day);
    }
    DayBoundary boundary =
        DayBoundary.of(day, ports.terms().statementZone(account), config.dateWindow());
    ReconWindow window =
        new ReconWindow(terms.get(), boundary.from(), boundary.to(), clock.instant());
    ReconCounts counts =
        new DayRun(ports, config, clock, runId, day, fileId, boundary, window).run();
    finish(runId, counts);
    return new Result(
        Outcome.DONE,
        runId,
        counts,
        counts.lines() + " lines, " + counts.newDifferences() + " new differences");
  }

  private void finish(long runId, ReconCounts counts) {
    if (!ports.runs().finish(runId, config.owner(), counts, clock.instant())) {
      throw new DayRun.LeaseLost("run " + runId + " taken over before it finished");
    }
  }

  private Result ended(String account, Result result) {
    ports.events().runEnded(account, result.outcome().name());
    return result;
  }
}
