package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.statement.StatementFileRecord;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one account-day: downloads and imports its statement when the account has a source (a
 * refused file or a failed download is counted and the day is reconciled against the file in force,
 * if any), runs the reconciliation under the account-day's lease, then one round of the repair
 * pass. Used by the daily run and by {@code POST /ops/reconciliation/runs}.
 */
public final class ReconRunner {
  private static final Logger log = LoggerFactory.getLogger(ReconRunner.class);

  private final ReconSteps.Fetch fetch;
  private final ReconSteps.Reconcile reconcile;
  private final ReconSteps.Repair repair;
  private final ReconMetrics metrics;

  /**
   * @param metrics null without a meter registry
   */
  public ReconRunner(
      ReconSteps.Fetch fetch,
      ReconSteps.Reconcile reconcile,
      ReconSteps.Repair repair,
      ReconMetrics metrics) {
    this.fetch = Objects.requireNonNull(fetch, "fetch");
    this.reconcile = Objects.requireNonNull(reconcile, "reconcile");
    this.repair = Objects.requireNonNull(repair, "repair");
    this.metrics = metrics;
  }

  public RunOutcome run(String account, LocalDate day) {
    RunOutcome.ImportView imported = null;
    String importError = null;
    try {
      Optional<StatementFileRecord> file = fetch.fetch(account, day);
      if (file.isPresent()) {
        imported = RunOutcome.ImportView.of(file.get());
        if (file.get().status() == StatementFileRecord.Status.REFUSED) {
          importFailed("refused");
        }
      }
    } catch (RuntimeException e) {
      // The reason may name a host or a path: only its class goes to the log and the answer.
      importFailed("download");
      importError = "the statement could not be downloaded (" + e.getClass().getSimpleName() + ")";
      log.warn("statement of an account for {} not downloaded: {}", day, e.getClass().getName());
    }
    Optional<ReconRun> run = reconcile.reconcile(account, day);
    int repaired = repair.runOnce();
    if (metrics != null) {
      metrics.refresh();
    }
    return new RunOutcome(
        account, day, imported, importError, run.map(RunView::of).orElse(null), repaired);
  }

  private void importFailed(String reason) {
    if (metrics != null) {
      metrics.importFailed(reason);
    }
  }
}
