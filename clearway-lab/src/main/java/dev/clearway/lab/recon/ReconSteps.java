package dev.clearway.lab.recon;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;

/** What the run asks of reconciliation: run an account-day, repair, and read back the findings. */
interface ReconSteps {

  /** Reconciles one imported account-day as of {@code asOf}. */
  void reconcile(ReconStatements.Imported file, Instant asOf);

  /** One repair round at {@code now}; answers how many differences it handled. */
  int repair(Instant now);

  /** Every difference recorded, with its state now. */
  List<ReconTally.FoundDifference> differences();

  /** The settlement status of each of {@code trades} (absent when none was recorded). */
  Map<String, String> settlement(Set<String> trades);

  static ReconSteps create(DataSource dataSource, ReconRig rig, Clock clock) {
    return new ReconSteps() {
      @Override
      public void reconcile(ReconStatements.Imported file, Instant asOf) {}

      @Override
      public int repair(Instant now) {
        return 0;
      }

      @Override
      public List<ReconTally.FoundDifference> differences() {
        return List.of();
      }

      @Override
      public Map<String, String> settlement(Set<String> trades) {
        return Map.of();
      }
    };
  }
}
