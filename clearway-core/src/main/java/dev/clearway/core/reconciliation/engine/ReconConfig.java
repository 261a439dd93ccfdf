package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.reconciliation.decision.Tolerances;
import java.time.Duration;
import java.util.Objects;

/**
 * How the reconciliation job and the repair pass run.
 *
 * @param owner this node's lease token for runs and differences
 * @param lease how long a run or a claimed difference is held before another node may take it
 * @param dateWindow how far across midnight a movement may sit in the neighbouring day's file
 * @param tolerances how far a suggested match may be off
 * @param batch how many differences one repair round claims
 * @param retryAfter when a repair that lost a race is tried again
 */
public record ReconConfig(
    String owner,
    Duration lease,
    Duration dateWindow,
    Tolerances tolerances,
    int batch,
    Duration retryAfter) {
  public ReconConfig {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(lease, "lease");
    Objects.requireNonNull(dateWindow, "dateWindow");
    Objects.requireNonNull(tolerances, "tolerances");
    Objects.requireNonNull(retryAfter, "retryAfter");
    if (batch < 1 || lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("a positive batch and lease");
    }
  }

  /**
   * A lease of 5 minutes, a date window of 2 hours, no tolerance, 100 per round, retry in 1 min.
   */
  public static ReconConfig defaults(String owner) {
    return new ReconConfig(
        owner,
        Duration.ofMinutes(5),
        Duration.ofHours(2),
        Tolerances.none(),
        100,
        Duration.ofMinutes(1));
  }
}
