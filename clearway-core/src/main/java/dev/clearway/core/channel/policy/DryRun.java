package dev.clearway.core.channel.policy;

import dev.clearway.core.channel.spi.RecoveryCapabilities;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Replays recorded history against a candidate policy and reports what would change (see {@link
 * DryRunReport} for the definitions). Pure apart from the {@link RecordedHistory} it is handed: no
 * clock, never calls a PSP; the same inputs give the same report.
 */
public final class DryRun {

  /** Attempts read per page of recorded history: the most a replay holds in memory at once. */
  public static final int PAGE = 1_000;

  /** The report over {@code history}, a list already in memory. */
  public DryRunReport run(
      RecoveryPolicy current,
      RecoveryPolicy candidate,
      Map<String, RecoveryCapabilities> channels,
      List<RecordedAttempt> history) {
    DryRunTally tally = new DryRunTally(current, candidate, channels, asOf(history));
    history.forEach(tally::add);
    return tally.report();
  }

  /**
   * The report over the attempts {@code history} recorded since {@code from}, read in pages of
   * {@value #PAGE} from one consistent read: the same report as {@link #run} over the same
   * attempts, in bounded memory however many there are.
   */
  public DryRunReport replay(
      RecoveryPolicy current,
      RecoveryPolicy candidate,
      Map<String, RecoveryCapabilities> channels,
      RecordedHistory history,
      Instant from) {
    try (RecordedHistory.Reading reading = history.open(from)) {
      DryRunTally tally = new DryRunTally(current, candidate, channels, reading.asOf());
      List<RecordedAttempt> page;
      do {
        page = reading.next(PAGE);
        page.forEach(tally::add);
      } while (page.size() == PAGE);
      return tally.report();
    }
  }

  /** The latest {@code createdAt} or {@code resolvedAt} in {@code history}; null if empty. */
  static Instant asOf(List<RecordedAttempt> history) {
    Instant latest = null;
    for (RecordedAttempt a : history) {
      latest = later(latest, a.createdAt());
      latest = later(latest, a.resolvedAt());
    }
    return latest;
  }

  private static Instant later(Instant a, Instant b) {
    if (a == null) {
      return b;
    }
    return b == null || !b.isAfter(a) ? a : b;
  }
}
