package dev.clearway.service.outbox;

import dev.clearway.core.outbox.EventPublisher;
import dev.clearway.core.outbox.OutboxEvent;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The in-process end of the outbox: hands each event to the subscribers registered in this process
 * and counts it. A message broker replaces it behind {@link EventPublisher}.
 */
public final class InProcessEventBus implements EventPublisher {
  private final List<Consumer<OutboxEvent>> subscribers = new CopyOnWriteArrayList<>();
  private final MeterRegistry meters;

  public InProcessEventBus(MeterRegistry meters) {
    this.meters = meters;
  }

  /** Subscribers must be idempotent by event id: delivery is at least once. */
  public void subscribe(Consumer<OutboxEvent> subscriber) {
    subscribers.add(subscriber);
  }

  @Override
  public void publish(OutboxEvent event) {
    for (Consumer<OutboxEvent> s : subscribers) {
      s.accept(event);
    }
    meters.counter("clearway.outbox.published", "type", event.eventType()).increment();
  }
}
