package dev.clearway.amqp;

import com.rabbitmq.client.AMQP;
import dev.clearway.core.outbox.EventPublisher;
import dev.clearway.core.outbox.OutboxEvent;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.Map;

/**
 * The outbox relay's end at the broker: each event goes to the topic exchange {@code
 * clearway.events} with its type as routing key and its stable event id as message id, persistent,
 * and {@link #publish} returns only after the broker confirmed it. The relay marks an event
 * published only when this returns; a failure (broker down, no confirm in time) throws, is counted,
 * and leaves the event pending. Delivery is at least once: consumers deduplicate by message id.
 */
public final class AmqpEventPublisher implements EventPublisher {
  private final BrokerConnection broker;
  private final BrokerMetrics metrics;

  public AmqpEventPublisher(BrokerConnection broker, BrokerMetrics metrics) {
    this.broker = broker;
    this.metrics = metrics;
  }

  @Override
  public void publish(OutboxEvent event) throws Exception {
    AMQP.BasicProperties props =
        new AMQP.BasicProperties.Builder()
            .deliveryMode(2)
            .contentType("application/json")
            .messageId(event.eventId())
            .type(event.eventType())
            .timestamp(Date.from(event.createdAt()))
            .headers(Map.of("aggregate-id", event.aggregateId()))
            .build();
    try {
      broker.publish(
          Topology.EVENTS_EXCHANGE,
          event.eventType(),
          props,
          event.payload().getBytes(StandardCharsets.UTF_8));
    } catch (Exception e) {
      metrics.publishFailed("event");
      throw e;
    }
  }
}
