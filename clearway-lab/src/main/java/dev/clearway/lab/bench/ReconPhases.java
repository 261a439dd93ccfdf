package dev.clearway.lab.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the time of one timed import and reconciliation went, by phase, accumulated in nanoseconds
 * on the bench's one thread: {@code parse} (reading and parsing the file), {@code copy} (storing
 * the file and its lines), {@code agree} (selecting the agreeing lines), {@code settlement} (the
 * settlement rows and marks), {@code differences} (recording differences), {@code unseen} (the
 * local movements no line showed, their differences excluded) and {@code match} (the rest of the
 * run: the matcher over the lines left to it and the run's own bookkeeping).
 */
final class ReconPhases {
  static final String PARSE = "parse";
  static final String COPY = "copy";
  static final String AGREE = "agree";
  static final String MATCH = "match";
  static final String SETTLEMENT = "settlement";
  static final String DIFFERENCES = "differences";
  static final String UNSEEN = "unseen";

  private final Map<String, Long> nanos = new LinkedHashMap<>();

  ReconPhases() {
    for (String phase : new String[] {PARSE, COPY, AGREE, MATCH, SETTLEMENT, DIFFERENCES, UNSEEN}) {
      nanos.put(phase, 0L);
    }
  }

  void add(String phase, long elapsedNanos) {
    if (!nanos.containsKey(phase)) {
      throw new IllegalArgumentException("unknown phase " + phase);
    }
    nanos.merge(phase, elapsedNanos, Long::sum);
  }

  long nanos(String phase) {
    return nanos.get(phase);
  }

  /** Sets {@code phase} to what is left of {@code totalNanos} once every other phase is counted. */
  void remainder(String phase, long totalNanos) {
    long others =
        nanos.entrySet().stream()
            .filter(e -> !e.getKey().equals(phase))
            .mapToLong(Map.Entry::getValue)
            .sum();
    nanos.put(phase, Math.max(0, totalNanos - others));
  }

  /** Every phase in milliseconds, in the order above. */
  Map<String, Long> millis() {
    Map<String, Long> out = new LinkedHashMap<>();
    nanos.forEach((k, v) -> out.put(k, v / 1_000_000));
    return out;
  }
}
