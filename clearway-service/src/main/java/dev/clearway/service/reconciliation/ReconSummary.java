package dev.clearway.service.reconciliation;

import java.time.Instant;
import java.util.List;

/**
 * The open differences by class and currency (count, amount in minor units, age of the oldest in
 * seconds), how many wait for a person, the age of the oldest open difference, and the last run of
 * each account.
 */
public record ReconSummary(
    List<ClassRow> classes, long tickets, long oldestOpenAgeSeconds, List<RunView> runs) {

  /** The open differences of one class in one currency. */
  public record ClassRow(
      String kind,
      String currency,
      long count,
      long amountMinor,
      Instant oldestFoundAt,
      long oldestAgeSeconds) {}
}
