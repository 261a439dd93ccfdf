package dev.clearway.core.outbox;

/**
 * Where the relay delivers events: an in-process bus today, a broker later. Throwing means "not
 * delivered": the event stays pending and is retried; delivering twice is allowed (at least once).
 */
@FunctionalInterface
public interface EventPublisher {
  void publish(OutboxEvent event) throws Exception;
}
