package dev.clearway.boot.metrics;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.channel.spi.ResultCertainty;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;

/**
 * The channel layer's on-call signals:
 *
 * <ul>
 *   <li>{@code clearway.channel.psp.answers{account, operation, certainty}}: the unknown rate per
 *       channel account is {@code certainty="UNKNOWN"} over all answers of that account;
 *   <li>{@code clearway.channel.failover.denied{reason}} and {@code clearway.channel.failovers};
 *   <li>{@code clearway.channel.multiple.success}: charges found on attempts recorded as failed;
 *   <li>{@code clearway.lease.lost{table}}: writes refused because the worker had lost its lease;
 *   <li>{@code clearway.channel.recovery.oldest.age} (seconds) and {@code
 *       clearway.channel.recovery.open} from the database, read at most once per refresh period.
 * </ul>
 */
public final class MicrometerChannelEvents implements ChannelEvents {

  private final MeterRegistry registry;

  public MicrometerChannelEvents(MeterRegistry registry, RecoveryTaskStore store, Clock clock) {
    this(registry, store, clock, CachedReading.DEFAULT_PERIOD);
  }

  /**
   * @param refresh how long one reading of the recovery-task gauges serves scrapes: the store is
   *     queried at most once per period per gauge, however often Prometheus scrapes
   */
  public MicrometerChannelEvents(
      MeterRegistry registry, RecoveryTaskStore store, Clock clock, Duration refresh) {
    this.registry = registry;
    CachedReading oldest =
        new CachedReading(
            "clearway.channel.recovery.oldest.age",
            () ->
                store
                    .oldestOpenTask()
                    .map(t -> (double) Duration.between(t, clock.instant()).toSeconds())
                    .orElse(0.0),
            refresh,
            clock);
    // Strong references: the readings live only in their gauges; a weakly held one would be
    // collected and the gauge would report NaN.
    Gauge.builder("clearway.channel.recovery.oldest.age", oldest, CachedReading::get)
        .baseUnit("seconds")
        .strongReference(true)
        .register(registry);
    CachedReading open =
        new CachedReading(
            "clearway.channel.recovery.open", () -> (double) store.openTasks(), refresh, clock);
    Gauge.builder("clearway.channel.recovery.open", open, CachedReading::get)
        .strongReference(true)
        .register(registry);
    registry.counter("clearway.channel.failovers");
    registry.counter("clearway.channel.multiple.success");
    registry.counter("clearway.channel.cas.lost");
  }

  /**
   * Registers at zero the answers of one account for every certainty of its payment creations, so
   * that the share of UNKNOWN answers per account has both of its series before the first answer.
   */
  public static void registerAccount(MeterRegistry registry, long channelAccountId) {
    for (ResultCertainty certainty : ResultCertainty.values()) {
      registry.counter(
          "clearway.channel.psp.answers",
          "account",
          Long.toString(channelAccountId),
          "operation",
          "CREATE",
          "certainty",
          certainty.name());
    }
  }

  @Override
  public void pspAnswer(long channelAccountId, String operation, ResultCertainty certainty) {
    registry
        .counter(
            "clearway.channel.psp.answers",
            "account",
            Long.toString(channelAccountId),
            "operation",
            operation,
            "certainty",
            certainty.name())
        .increment();
  }

  @Override
  public void failoverDenied(String reason) {
    registry.counter("clearway.channel.failover.denied", "reason", reason).increment();
  }

  @Override
  public void failover(long fromAccountId, long toAccountId) {
    registry.counter("clearway.channel.failovers").increment();
  }

  @Override
  public void attemptMoved(Attempt attempt, AttemptStatus to) {
    registry.counter("clearway.channel.attempt.transitions", "to", to.name()).increment();
  }

  @Override
  public void multipleSuccess(String tradeOrderNo) {
    registry.counter("clearway.channel.multiple.success").increment();
  }

  @Override
  public void concurrentlyResolved() {
    registry.counter("clearway.channel.cas.lost").increment();
  }

  @Override
  public void leaseLost(String table) {
    registry.counter("clearway.lease.lost", "table", table).increment();
  }
}
