package dev.clearway.core.reconciliation.domain;

/** What one run saw and did. */
public record ReconCounts(
    long lines, long differences, long newDifferences, long autoRepaired, long tickets) {

  public static ReconCounts none() {
    return new ReconCounts(0, 0, 0, 0, 0);
  }
}
