package dev.clearway.service.reconciliation;

import dev.clearway.core.reconciliation.domain.ReconRun;
import dev.clearway.core.reconciliation.domain.ReconRunStatus;
import dev.clearway.core.reconciliation.port.ReconRuns;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daily run of every configured account, and the repair pass on an interval. Every {@code
 * check} interval, for each account whose statement of day D has become available (its configured
 * time of day in the account's zone, on D + 1), the day is downloaded, imported and reconciled
 * unless its latest run already is DONE; the account-day's run lease (ReconRuns) lets one node run
 * it, and a FAILED run is retried on the next check. The repair pass runs every {@code
 * repairEvery}. Both survive a failed round.
 */
public final class DailyReconciliation implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(DailyReconciliation.class);

  private final ConfiguredAccountTerms accounts;
  private final ReconRuns runs;
  private final ReconRunner runner;
  private final ReconSteps.Repair repair;
  private final Clock clock;
  private final ScheduledExecutorService timer =
      Executors.newScheduledThreadPool(
          2,
          r -> {
            Thread t = new Thread(r, "clearway-reconciliation");
            t.setDaemon(true);
            return t;
          });

  public DailyReconciliation(
      ConfiguredAccountTerms accounts,
      ReconRuns runs,
      ReconRunner runner,
      ReconSteps.Repair repair,
      Clock clock) {
    this.accounts = accounts;
    this.runs = runs;
    this.runner = runner;
    this.repair = repair;
    this.clock = clock;
  }

  /** Starts the checks and the repair pass; a zero interval leaves that loop off. */
  public DailyReconciliation start(Duration check, Duration repairEvery) {
    if (!check.isZero()) {
      timer.scheduleWithFixedDelay(
          this::checkRound, check.toMillis(), check.toMillis(), TimeUnit.MILLISECONDS);
    }
    if (!repairEvery.isZero()) {
      timer.scheduleWithFixedDelay(
          this::repairRound, repairEvery.toMillis(), repairEvery.toMillis(), TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** Runs every configured account whose latest available day is not reconciled yet. */
  public void checkRound() {
    Set<String> configured = accounts.configuredAccounts();
    if (configured.isEmpty()) {
      return;
    }
    List<ReconRun> latest;
    try {
      latest = runs.latestPerAccount();
    } catch (RuntimeException e) {
      log.warn("daily reconciliation check failed: {}", e.getClass().getName());
      return;
    }
    for (String account : configured) {
      LocalDate day = availableDay(account);
      if (done(latest, account, day)) {
        continue;
      }
      try {
        runner.run(account, day);
      } catch (RuntimeException e) {
        // The next check retries; only the class is logged (a message may carry a host or path).
        log.warn("daily reconciliation of {} failed: {}", day, e.getClass().getName());
      }
    }
  }

  /** The latest statement day of the account that is available now. */
  LocalDate availableDay(String account) {
    ConfiguredAccountTerms.Settings s = accounts.settings(account);
    ZonedDateTime now = clock.instant().atZone(s.zone());
    LocalDate yesterday = now.toLocalDate().minusDays(1);
    return now.toLocalTime().isBefore(s.availableAt()) ? yesterday.minusDays(1) : yesterday;
  }

  private static boolean done(List<ReconRun> latest, String account, LocalDate day) {
    Optional<ReconRun> last = latest.stream().filter(r -> r.account().equals(account)).findFirst();
    return last.isPresent()
        && !last.get().day().isBefore(day)
        && last.get().status() == ReconRunStatus.DONE;
  }

  private void repairRound() {
    try {
      repair.runOnce();
    } catch (RuntimeException e) {
      log.warn("reconciliation repair round failed: {}", e.getClass().getName());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
