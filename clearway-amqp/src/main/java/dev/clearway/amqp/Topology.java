package dev.clearway.amqp;

import com.rabbitmq.client.Channel;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;

/**
 * The names and the declarations of every queue and exchange; declaring is idempotent, so every
 * process declares all of them on each new connection.
 *
 * <ul>
 *   <li>{@code clearway.wakeups.work}: due wake-ups, consumed by every node; a message rejected
 *       without requeue dead-letters into {@code clearway.wakeups.dead}.
 *   <li>{@code clearway.wakeups.delay.<millis>}: one durable queue per tier, message TTL = tier, no
 *       consumer, dead-letters into the work queue.
 *   <li>{@code clearway.events}: durable topic exchange of outbox events, routing key = event type.
 * </ul>
 */
public final class Topology {
  public static final String WORK_QUEUE = "clearway.wakeups.work";
  public static final String DEAD_QUEUE = "clearway.wakeups.dead";
  public static final String DELAY_PREFIX = "clearway.wakeups.delay.";
  public static final String EVENTS_EXCHANGE = "clearway.events";

  private final DelayTiers tiers;

  public Topology(DelayTiers tiers) {
    this.tiers = tiers;
  }

  public DelayTiers tiers() {
    return tiers;
  }

  public static String delayQueue(Duration tier) {
    return DELAY_PREFIX + tier.toMillis();
  }

  public void declare(Channel channel) throws IOException {
    channel.queueDeclare(DEAD_QUEUE, true, false, false, null);
    channel.queueDeclare(
        WORK_QUEUE,
        true,
        false,
        false,
        Map.of("x-dead-letter-exchange", "", "x-dead-letter-routing-key", DEAD_QUEUE));
    for (Duration tier : tiers.all()) {
      channel.queueDeclare(
          delayQueue(tier),
          true,
          false,
          false,
          Map.of(
              "x-message-ttl",
              tier.toMillis(),
              "x-dead-letter-exchange",
              "",
              "x-dead-letter-routing-key",
              WORK_QUEUE));
    }
    channel.exchangeDeclare(EVENTS_EXCHANGE, "topic", true);
  }
}
