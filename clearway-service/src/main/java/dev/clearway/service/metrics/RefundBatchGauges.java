package dev.clearway.service.metrics;

import dev.clearway.core.refundbatch.domain.BatchState;
import dev.clearway.core.refundbatch.domain.ItemOutcome;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refund batches read from the database every few seconds on a timer of their own (scrapes read the
 * cached values), every series registered at zero when the service starts:
 *
 * <ul>
 *   <li>{@code clearway.refund.batches{state}}: batches per state, one series for every {@link
 *       BatchState};
 *   <li>{@code clearway.refund.batch.items{outcome}}: the items of the batches not yet ended
 *       (PROPOSED, APPROVED, RUNNING, PAUSED) per outcome, one series for every {@link
 *       ItemOutcome}: the progress of the work in hand (PENDING falls, REFUNDED grows, NEEDS_PERSON
 *       asks for a person).
 * </ul>
 */
public final class RefundBatchGauges implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RefundBatchGauges.class);

  private final DataSource dataSource;
  private final Map<BatchState, AtomicLong> batches = new EnumMap<>(BatchState.class);
  private final Map<ItemOutcome, AtomicLong> items = new EnumMap<>(ItemOutcome.class);
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clearway-refund-batch-gauges");
            t.setDaemon(true);
            return t;
          });

  public RefundBatchGauges(DataSource dataSource, MeterRegistry registry, long periodMillis) {
    this.dataSource = dataSource;
    for (BatchState state : BatchState.values()) {
      AtomicLong count = new AtomicLong();
      batches.put(state, count);
      Gauge.builder("clearway.refund.batches", count, AtomicLong::get)
          .description("Refund batches per state")
          .tag("state", state.name())
          .register(registry);
    }
    for (ItemOutcome outcome : ItemOutcome.values()) {
      AtomicLong count = new AtomicLong();
      items.put(outcome, count);
      Gauge.builder("clearway.refund.batch.items", count, AtomicLong::get)
          .description("Items of the refund batches not yet ended, per outcome")
          .tag("outcome", outcome.name())
          .register(registry);
    }
    timer.scheduleWithFixedDelay(this::refresh, 0, periodMillis, TimeUnit.MILLISECONDS);
  }

  /** Reads both counts again; a failed read keeps the previous values. */
  void refresh() {
    try (Connection c = dataSource.getConnection()) {
      Map<String, Long> byState =
          counts(c, "SELECT state, count(*) FROM refund_batch GROUP BY state");
      Map<String, Long> byOutcome =
          counts(
              c,
              "SELECT i.outcome, count(*) FROM refund_batch b"
                  + " JOIN refund_batch_item i ON i.batch_id = b.id"
                  + " WHERE b.state IN ('PROPOSED', 'APPROVED', 'RUNNING', 'PAUSED')"
                  + " GROUP BY i.outcome");
      batches.forEach((s, v) -> v.set(byState.getOrDefault(s.name(), 0L)));
      items.forEach((o, v) -> v.set(byOutcome.getOrDefault(o.name(), 0L)));
    } catch (SQLException | RuntimeException e) {
      log.warn("refund batch gauges not refreshed: {}", e.getClass().getSimpleName());
    }
  }

  private static Map<String, Long> counts(Connection c, String sql) throws SQLException {
    Map<String, Long> out = new HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql);
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2));
      }
    }
    return out;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
