package dev.clearway.lab.bench;

import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.port.AgreeingLines;
import dev.clearway.lab.reconcile.FixedTerms;
import dev.clearway.lab.reconcile.LabRecon;
import dev.clearway.store.Database;
import java.time.Clock;
import java.util.Map;
import java.util.TreeMap;

/** The timed reconciliation of the bench's account-day, and what it found by class. */
final class ReconBenchRun {
  private ReconBenchRun() {}

  /** The differences a run recorded, by class name. */
  record Found(Map<String, Long> byClass) {
    Found {
      byClass = new TreeMap<>(byClass);
    }

    long total() {
      return byClass.values().stream().mapToLong(Long::longValue).sum();
    }

    /** True when exactly the planted differences were found: none missed, none extra. */
    boolean matches(Map<String, Integer> planted) {
      Map<String, Long> expected = new TreeMap<>();
      planted.forEach((k, v) -> expected.put(k, v.longValue()));
      return byClass.equals(expected);
    }
  }

  /**
   * Runs the job for the plan's account-day, counting its time by phase; fails unless the run ends
   * DONE.
   */
  static Found reconcile(Database db, ReconBenchPlan plan, ReconPhases phases) {
    Clock clock = Clock.systemUTC();
    LabRecon recon = new LabRecon(db, FixedTerms.wallet(), "wallet", clock);
    AgreeingLines agreeing =
        TimedReconPorts.of(
            recon.agreeing(
                (step, nanos) ->
                    phases.add(
                        "settle".equals(step) ? ReconPhases.SETTLEMENT : ReconPhases.AGREE, nanos)),
            phases);
    ReconciliationJob job =
        new ReconciliationJob(
            TimedReconPorts.of(recon.ports(), phases), recon.config(), clock, agreeing);
    ReconciliationJob.Result result = job.run(plan.account(), plan.day());
    if (result.outcome() != ReconciliationJob.Outcome.DONE) {
      throw new IllegalStateException(
          "the bench run ended " + result.outcome() + ": " + result.detail());
    }
    return new Found(recon.differencesByClass(plan.account(), plan.day()));
  }
}
