package dev.clearway.service.metrics;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counter totals at one instant, of which two consecutive readings give one step of the console's
 * series: terminal transitions by target state, and external answers (all, and those whose result
 * stayed UNKNOWN).
 */
record MeterTotals(Map<String, Double> ended, double answers, double unknownAnswers) {

  static final MeterTotals ZERO = new MeterTotals(Map.of(), 0, 0);

  MeterTotals {
    ended = Map.copyOf(ended);
  }

  /** What happened between {@code earlier} and this reading, as a step ending at {@code at}. */
  MinuteSample since(MeterTotals earlier, Instant at, long oldestOpenAgeSeconds, boolean partial) {
    Map<String, Long> payments = new LinkedHashMap<>();
    ended.forEach(
        (state, total) ->
            payments.put(
                state, Math.max(0, Math.round(total - earlier.ended.getOrDefault(state, 0.0)))));
    double all = answers - earlier.answers;
    double unknown = unknownAnswers - earlier.unknownAnswers;
    Double share = all <= 0 ? null : Math.max(0, Math.min(1, unknown / all));
    return new MinuteSample(at, payments, share, oldestOpenAgeSeconds, partial);
  }
}
