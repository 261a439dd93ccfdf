package dev.clearway.service.metrics;

import dev.clearway.core.flow.domain.FlowStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges read from the database every few seconds: unfinished flows per state, the age of the
 * oldest one per state (the signal that a state stopped converging), and the manual-review backlog.
 * Both queries go through partial indexes whose size follows the unfinished work. They read the
 * state table alone, which holds every column they need: a sharding driver routes a table, not the
 * view, and sends these to every shard and adds the shards' answers up.
 */
public final class FlowStateGauges implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FlowStateGauges.class);

  private final DataSource dataSource;
  private final Clock clock;
  private final Map<FlowStatus, AtomicLong> counts = new EnumMap<>(FlowStatus.class);
  private final Map<FlowStatus, AtomicLong> oldestSeconds = new EnumMap<>(FlowStatus.class);
  private final AtomicLong reviewBacklog = new AtomicLong();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clearway-gauges");
            t.setDaemon(true);
            return t;
          });

  public FlowStateGauges(
      DataSource dataSource, MeterRegistry registry, Clock clock, long periodMillis) {
    this.dataSource = dataSource;
    this.clock = clock;
    for (FlowStatus s : FlowStatus.values()) {
      if (s.isTerminal()) {
        continue;
      }
      AtomicLong count = new AtomicLong();
      AtomicLong oldest = new AtomicLong();
      counts.put(s, count);
      oldestSeconds.put(s, oldest);
      Gauge.builder("clearway.flows.open", count, AtomicLong::get)
          .description("Unfinished flows per state")
          .tag("state", s.name())
          .register(registry);
      Gauge.builder("clearway.flows.oldest.age.seconds", oldest, AtomicLong::get)
          .description("Time in its state of the oldest unfinished flow per state")
          .tag("state", s.name())
          .register(registry);
    }
    Gauge.builder("clearway.manual_review.backlog", reviewBacklog, AtomicLong::get)
        .description("Flows escalated or frozen for a person")
        .register(registry);
    timer.scheduleWithFixedDelay(this::refresh, 0, periodMillis, TimeUnit.MILLISECONDS);
  }

  void refresh() {
    Instant now = clock.instant();
    Map<FlowStatus, long[]> seen = new EnumMap<>(FlowStatus.class);
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      try (ResultSet rs =
          st.executeQuery(
              "SELECT status, count(*), min(updated_at) FROM pay_flow_state"
                  + " WHERE status IN ('WAIT_PAY', 'PAYING', 'PAYED', 'REFUNDING')"
                  + " AND review_state <> 'FROZEN' GROUP BY status")) {
        while (rs.next()) {
          OffsetDateTime oldest = rs.getObject(3, OffsetDateTime.class);
          seen.put(
              FlowStatus.valueOf(rs.getString(1)),
              new long[] {rs.getLong(2), now.getEpochSecond() - oldest.toEpochSecond()});
        }
      }
      try (ResultSet rs =
          st.executeQuery("SELECT count(*) FROM pay_flow_state WHERE review_state <> 'NONE'")) {
        rs.next();
        reviewBacklog.set(rs.getLong(1));
      }
    } catch (SQLException | RuntimeException e) {
      log.warn("flow gauges not refreshed: {}", e.getClass().getSimpleName());
      return;
    }
    counts.forEach((s, v) -> v.set(seen.containsKey(s) ? seen.get(s)[0] : 0));
    oldestSeconds.forEach((s, v) -> v.set(seen.containsKey(s) ? Math.max(0, seen.get(s)[1]) : 0));
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
