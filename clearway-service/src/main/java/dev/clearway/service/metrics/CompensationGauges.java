package dev.clearway.service.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compensations (refunds of charges found on attempts recorded FAILED) that do not get done, read
 * from the database every few seconds on a timer of their own (scrapes read the cached values):
 *
 * <ul>
 *   <li>{@code clearway.channel.compensations.failing}: PENDING compensations whose last try ended
 *       in an error (the refund call threw or the PSP left it unknown) after at least {@link
 *       #FAILING_AFTER_TRIES} tries: the customer stays charged while they retry;
 *   <li>{@code clearway.channel.compensations.manual}: compensations in MANUAL, waiting for a
 *       person.
 * </ul>
 *
 * <p>One query over the open compensations (PENDING or MANUAL), never the settled history.
 */
public final class CompensationGauges implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CompensationGauges.class);

  /** Tries after which a compensation whose last try failed counts as failing. */
  public static final int FAILING_AFTER_TRIES = 3;

  private final DataSource dataSource;
  private final AtomicLong failing = new AtomicLong();
  private final AtomicLong manual = new AtomicLong();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clearway-compensation-gauges");
            t.setDaemon(true);
            return t;
          });

  public CompensationGauges(DataSource dataSource, MeterRegistry registry, long periodMillis) {
    this.dataSource = dataSource;
    Gauge.builder("clearway.channel.compensations.failing", failing, AtomicLong::get)
        .description("PENDING compensations whose last tries failed: a customer stays charged")
        .register(registry);
    Gauge.builder("clearway.channel.compensations.manual", manual, AtomicLong::get)
        .description("Compensations in MANUAL: a person must refund or close them")
        .register(registry);
    timer.scheduleWithFixedDelay(this::refresh, 0, periodMillis, TimeUnit.MILLISECONDS);
  }

  /**
   * Reads both counts again; a failed read keeps the previous values. Two plain counts, the same on
   * every database: a sharding driver sends each to every shard and adds the answers up (it fails
   * to merge a SUM over a CASE).
   */
  void refresh() {
    try (Connection c = dataSource.getConnection()) {
      long failingNow =
          count(
              c,
              "SELECT count(*) FROM attempt_compensation"
                  + " WHERE status = 'PENDING' AND last_error IS NOT NULL AND tries >= ?",
              FAILING_AFTER_TRIES);
      long manualNow =
          count(c, "SELECT count(*) FROM attempt_compensation WHERE status = 'MANUAL'", null);
      failing.set(failingNow);
      manual.set(manualNow);
    } catch (SQLException | RuntimeException e) {
      log.warn("compensation gauges not refreshed: {}", e.getClass().getSimpleName());
    }
  }

  private static long count(Connection c, String sql, Integer tries) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      if (tries != null) {
        ps.setInt(1, tries);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
