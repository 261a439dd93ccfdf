package dev.clearway.boot.metrics;

import dev.clearway.core.flow.port.OverloadEvents;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Work a full queue refused, counted in {@code clearway.overload.rejected{pool}}. Not logged: under
 * overload a line per refusal would add to the load; the counter and its rate tell the story.
 */
public final class MicrometerOverloadEvents implements OverloadEvents {
  private final MeterRegistry registry;

  public MicrometerOverloadEvents(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void rejected(String pool) {
    registry.counter("clearway.overload.rejected", "pool", pool).increment();
  }
}
