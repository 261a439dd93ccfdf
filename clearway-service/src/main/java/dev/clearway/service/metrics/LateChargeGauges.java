package dev.clearway.service.metrics;

import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SweepSchedule;
import dev.clearway.store.latecharge.JdbcLateChargeOps;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Late-charge gauges read from the database every few seconds (scrapes read the cached values):
 * open checks per state ({@code clearway.late_charge.open{state}}), the checks a person must look
 * at ({@code clearway.late_charge.manual.backlog}), and per sweep stage how far behind it runs
 * ({@code clearway.late_charge.sweep.lag.seconds{stage}}: now minus the stage's age minus the end
 * time of the last order it queried; it grows when the sweep's rate cannot keep up).
 */
public final class LateChargeGauges implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LateChargeGauges.class);

  private final JdbcLateChargeOps ops;
  private final Clock clock;
  private final Map<LateChargeStatus, AtomicLong> open = new EnumMap<>(LateChargeStatus.class);
  private final AtomicLong manual = new AtomicLong();
  private final Map<Duration, AtomicLong> lag = new LinkedHashMap<>();
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clearway-late-charge-gauges");
            t.setDaemon(true);
            return t;
          });

  public LateChargeGauges(
      JdbcLateChargeOps ops,
      SweepSchedule schedule,
      MeterRegistry registry,
      Clock clock,
      long periodMillis) {
    this.ops = ops;
    this.clock = clock;
    for (LateChargeStatus s : LateChargeStatus.values()) {
      if (s.isTerminal()) {
        continue;
      }
      AtomicLong count = new AtomicLong();
      open.put(s, count);
      Gauge.builder("clearway.late_charge.open", count, AtomicLong::get)
          .description("Open late-charge checks per state")
          .tag("state", s.name())
          .register(registry);
    }
    Gauge.builder("clearway.late_charge.manual.backlog", manual, AtomicLong::get)
        .description("Late-charge checks without a definite wallet answer: a person must look")
        .register(registry);
    for (Duration stage : schedule.stages()) {
      AtomicLong seconds = new AtomicLong();
      lag.put(stage, seconds);
      Gauge.builder("clearway.late_charge.sweep.lag.seconds", seconds, AtomicLong::get)
          .description("How far the late-charge sweep of a stage runs behind")
          .tag("stage", stage.toString())
          .register(registry);
    }
    timer.scheduleWithFixedDelay(this::refresh, 0, periodMillis, TimeUnit.MILLISECONDS);
  }

  void refresh() {
    Map<String, Long> counts;
    Map<Duration, Instant> cursors;
    try {
      counts = ops.openByStatus();
      cursors = ops.sweepCursors();
    } catch (RuntimeException e) {
      log.warn("late-charge gauges not refreshed: {}", e.getClass().getSimpleName());
      return;
    }
    open.forEach((s, v) -> v.set(counts.getOrDefault(s.name(), 0L)));
    manual.set(counts.getOrDefault(LateChargeStatus.MANUAL.name(), 0L));
    Instant now = clock.instant();
    lag.forEach(
        (stage, v) -> {
          Instant cursor = cursors.get(stage);
          long behind = cursor == null ? 0 : Duration.between(cursor, now.minus(stage)).toSeconds();
          v.set(Math.max(0, behind));
        });
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
