package dev.clearway.service.metrics;

import dev.clearway.boot.metrics.CachedReading;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Compensations (refunds of charges found on attempts recorded FAILED) that do not get done, read
 * from the database at most once per period however often they are scraped:
 *
 * <ul>
 *   <li>{@code clearway.channel.compensations.failing}: PENDING compensations whose last try ended
 *       in an error (the refund call threw or the PSP left it unknown) and that were tried at least
 *       {@link #FAILING_AFTER_TRIES} times: the customer stays charged while they retry;
 *   <li>{@code clearway.channel.compensations.manual}: compensations in MANUAL, waiting for a
 *       person.
 * </ul>
 *
 * <p>Both count rows of a partial index's size (open compensations), never the settled history.
 */
public final class CompensationGauges {
  /** Tries after which a compensation whose last try failed counts as failing. */
  public static final int FAILING_AFTER_TRIES = 3;

  private final DataSource dataSource;

  public CompensationGauges(
      DataSource dataSource, MeterRegistry registry, Clock clock, Duration refresh) {
    this.dataSource = dataSource;
    CachedReading failing =
        new CachedReading("clearway.channel.compensations.failing", this::failing, refresh, clock);
    Gauge.builder("clearway.channel.compensations.failing", failing, CachedReading::get)
        .description("PENDING compensations whose last tries failed: a customer stays charged")
        .strongReference(true)
        .register(registry);
    CachedReading manual =
        new CachedReading("clearway.channel.compensations.manual", this::manual, refresh, clock);
    Gauge.builder("clearway.channel.compensations.manual", manual, CachedReading::get)
        .description("Compensations in MANUAL: a person must refund or close them")
        .strongReference(true)
        .register(registry);
  }

  double failing() {
    return count(
        "SELECT count(*) FROM attempt_compensation"
            + " WHERE status = 'PENDING' AND last_error IS NOT NULL AND tries >= ?",
        FAILING_AFTER_TRIES);
  }

  double manual() {
    return count("SELECT count(*) FROM attempt_compensation WHERE status = ?", "MANUAL");
  }

  private double count(String sql, Object parameter) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setObject(1, parameter);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("compensation gauge not read", e);
    }
  }
}
