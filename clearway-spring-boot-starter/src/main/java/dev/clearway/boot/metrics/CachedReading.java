package dev.clearway.boot.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A gauge value read from the database at most once per period, however often it is scraped:
 * between readings every scrape gets the last value. A failed reading keeps the last value and
 * waits for the next period, so a slow or failing database is not queried once per scrape either.
 */
public final class CachedReading {
  private static final Logger log = LoggerFactory.getLogger(CachedReading.class);

  /** How long a reading serves scrapes unless configured otherwise. */
  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(5);

  private final String name;
  private final DoubleSupplier source;
  private final Duration period;
  private final Clock clock;
  private Instant readAt;
  private double value;

  /**
   * @param name the gauge's name, for the log line of a failed reading
   * @param source the database query behind the gauge
   */
  public CachedReading(String name, DoubleSupplier source, Duration period, Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.source = Objects.requireNonNull(source, "source");
    this.period = Objects.requireNonNull(period, "period");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The last reading, refreshed first when it is older than the period. */
  public synchronized double get() {
    Instant now = clock.instant();
    if (readAt == null || !now.isBefore(readAt.plus(period))) {
      readAt = now;
      try {
        value = source.getAsDouble();
      } catch (RuntimeException e) {
        log.warn("gauge {} not refreshed: {}", name, e.getClass().getSimpleName());
      }
    }
    return value;
  }

  /** When the value was last read (or tried), null before the first scrape. */
  public synchronized Instant readAt() {
    return readAt;
  }
}
