package dev.clearway.service.metrics;

import java.time.Instant;
import java.util.Map;

/**
 * One step of the console's last-hour series: payments that ended in the step by outcome (the
 * terminal state they reached), the share of external answers whose result stayed UNKNOWN (null
 * when there was no answer), and the age of the oldest unfinished flow at its end.
 *
 * @param at the end of the step
 * @param partial true for the step still running (its counts grow until it ends)
 */
public record MinuteSample(
    Instant at,
    Map<String, Long> payments,
    Double unknownShare,
    long oldestOpenAgeSeconds,
    boolean partial) {

  public MinuteSample {
    payments = Map.copyOf(payments);
  }
}
