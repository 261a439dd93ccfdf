package dev.clearway.lab.recon;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the run asks of reconciliation: run an account-day, repair, and read back the findings. */
interface ReconSteps {

  /** Reconciles one imported account-day. */
  void reconcile(ReconStatements.Imported file);

  /** One repair round; answers how many differences it claimed. */
  int repair();

  /** The differences still to be worked (OPEN or AUTO_REPAIRING). */
  long unresolved();

  /** Every difference recorded, with its state now. */
  List<ReconTally.FoundDifference> differences();

  /** The settlement status of each of {@code trades} (absent when none was recorded). */
  Map<String, String> settlement(Set<String> trades);
}
