package dev.clearway.amqp;

import dev.clearway.core.flow.port.WakeupScheduler;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Wake-ups through the broker for one kind of row (flows, refunds, ...): a wake-up due later goes
 * to the delay queue of its tier, one due now straight to the work queue; persistent, confirmed. A
 * publish that fails (broker down, no confirm in time) is counted and dropped: a wake-up is a hint,
 * the row stays due in the database and the scanner finds it.
 */
public final class AmqpWakeups implements WakeupScheduler {
  private final BrokerConnection broker;
  private final String kind;
  private final Clock clock;
  private final BrokerMetrics metrics;

  public AmqpWakeups(BrokerConnection broker, String kind, Clock clock, BrokerMetrics metrics) {
    this.broker = broker;
    this.kind = kind;
    this.clock = clock;
    this.metrics = metrics;
  }

  @Override
  public void schedule(long id, Instant at) {
    try {
      send(broker, Wakeup.first(kind, id, at), clock.instant());
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      metrics.publishFailed("wakeup");
    }
  }

  /** Publishes to the tier that holds the time left, or to the work queue when none is left. */
  static void send(BrokerConnection broker, Wakeup wakeup, Instant now) throws Exception {
    Duration left = Duration.between(now, wakeup.due());
    String queue =
        left.isNegative() || left.isZero()
            ? Topology.WORK_QUEUE
            : Topology.delayQueue(broker.topology().tiers().tierFor(left));
    broker.publish("", queue, wakeup.properties(), wakeup.body());
  }
}
