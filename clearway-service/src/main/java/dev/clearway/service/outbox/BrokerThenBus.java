package dev.clearway.service.outbox;

import dev.clearway.core.outbox.EventPublisher;
import dev.clearway.core.outbox.OutboxEvent;

/**
 * With a broker, the outbox relay's end: each event goes to the broker first and, once the broker
 * has confirmed it, to this process's in-process subscribers, so an embedding application's
 * listeners keep receiving events. {@link #publish} returns (and the relay marks the event
 * published) only after both; if either throws the event stays pending and is delivered again to
 * both, which at-least-once delivery allows (subscribers deduplicate by event id).
 */
final class BrokerThenBus implements EventPublisher {
  private final EventPublisher broker;
  private final InProcessEventBus bus;

  BrokerThenBus(EventPublisher broker, InProcessEventBus bus) {
    this.broker = broker;
    this.bus = bus;
  }

  @Override
  public void publish(OutboxEvent event) throws Exception {
    broker.publish(event);
    bus.publish(event);
  }
}
