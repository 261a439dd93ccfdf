package dev.clearway.core.channel.policy;

import java.util.ArrayList;
import java.util.List;

/** How many recorded attempts a dry-run finding concerns, and a few of their ids to look at. */
public record DryRunFinding(int count, List<Long> sampleAttemptIds) {

  /** At most this many sample ids are kept per finding. */
  public static final int MAX_SAMPLES = 5;

  public DryRunFinding {
    sampleAttemptIds = List.copyOf(sampleAttemptIds);
  }

  public static DryRunFinding none() {
    return new DryRunFinding(0, List.of());
  }

  /** Counts attempts and keeps the first {@link #MAX_SAMPLES} ids. Not thread-safe. */
  static final class Collector {
    private int count;
    private final List<Long> samples = new ArrayList<>();

    void add(long attemptId) {
      count++;
      if (samples.size() < MAX_SAMPLES) {
        samples.add(attemptId);
      }
    }

    DryRunFinding finding() {
      return new DryRunFinding(count, samples);
    }
  }
}
