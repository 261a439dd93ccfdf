package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.decision.DayBoundary;
import dev.clearway.core.reconciliation.domain.AccountTerms;
import dev.clearway.core.reconciliation.domain.ReconCounts;
import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.reconciliation.domain.ReconWindow;
import dev.clearway.core.reconciliation.port.AgreeingLines;
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
  private final AgreeingLines agreeing;

  /** Matches every line of the file in Java, one line at a time (the plain path). */
  public ReconciliationJob(ReconPorts ports, ReconConfig config, Clock clock) {
    this(ports, config, clock, null);
  }

  /**
   * @param agreeing settles the file's agreeing charge lines set-based before the matcher sees the
   *     rest; null matches every line in Java (the plain path). A file whose fees are grouped on
   *     lines of their own always takes the plain path (every charge line counts in the balance).
   */
  public ReconciliationJob(
      ReconPorts ports, ReconConfig config, Clock clock, AgreeingLines agreeing) {
    this.ports = ports;
    this.config = config;
    this.clock = clock;
    this.agreeing = agreeing;
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
    ReconCounts counts;
    try (AgreeingLines.Claim claim = claim(fileId, window)) {
      ReconPorts batched =
          claim == null ? BatchedRunPorts.of(ports) : BatchedRunPorts.of(ports, fileId, claim);
      counts =
          new DayRun(batched, config, clock, runId, day, fileId, boundary, window, claim).run();
    }
    finish(runId, counts);
    return new Result(
        Outcome.DONE,
        runId,
        counts,
        counts.lines() + " lines, " + counts.newDifferences() + " new differences");
  }

  /** The store's claim of the agreeing lines; null on the plain path. */
  private AgreeingLines.Claim claim(long fileId, ReconWindow window) {
    if (agreeing == null || ports.facts().groupedFees(fileId).isPresent()) {
      return null;
    }
    return agreeing.claim(fileId, window.account(), window.terms(), clock.instant());
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
