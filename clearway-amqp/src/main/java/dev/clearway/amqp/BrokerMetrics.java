package dev.clearway.amqp;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * What the broker transport counts.
 *
 * <ul>
 *   <li>{@code clearway.broker.publish.failures{what=wakeup|event}}: publishes not confirmed (the
 *       wake-up is left to the scanner, the event stays pending in the outbox)
 *   <li>{@code clearway.broker.wakeup.lag}: how late each wake-up was consumed after its due time;
 *       its max is the age of the oldest wake-up consumed late
 *   <li>{@code clearway.broker.redeliveries}: wake-ups the broker delivered again
 *   <li>{@code clearway.broker.wakeups.redelayed}: wake-ups consumed early and delayed again
 *   <li>{@code clearway.broker.dead.letters}: wake-ups that kept failing, moved to the dead queue
 * </ul>
 */
public final class BrokerMetrics {
  private final MeterRegistry meters;
  private final Timer lag;

  public BrokerMetrics(MeterRegistry meters) {
    this.meters = meters;
    this.lag =
        Timer.builder("clearway.broker.wakeup.lag")
            .description("How late wake-ups were consumed after their due time")
            .register(meters);
  }

  public void publishFailed(String what) {
    meters.counter("clearway.broker.publish.failures", "what", what).increment();
  }

  public void consumedLate(Duration late) {
    lag.record(late.isNegative() ? Duration.ZERO : late);
  }

  public void redelivered() {
    meters.counter("clearway.broker.redeliveries").increment();
  }

  public void redelayed() {
    meters.counter("clearway.broker.wakeups.redelayed").increment();
  }

  public void deadLettered() {
    meters.counter("clearway.broker.dead.letters").increment();
  }

  public double publishFailures(String what) {
    return meters.counter("clearway.broker.publish.failures", "what", what).count();
  }

  public double count(String name) {
    return meters.counter(name).count();
  }
}
