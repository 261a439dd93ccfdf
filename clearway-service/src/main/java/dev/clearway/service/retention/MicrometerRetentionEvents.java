package dev.clearway.service.retention;

import dev.clearway.core.retention.RetentionEvents;
import dev.clearway.core.retention.RetentionKind;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code clearway.retention.rows{kind}}: rows removed from the hot tables (flows: moved to the
 * archive); {@code clearway.retention.failures{kind}}: batches that failed (the run stops; the next
 * one goes on from the oldest rows).
 */
final class MicrometerRetentionEvents implements RetentionEvents {
  private static final Logger log = LoggerFactory.getLogger(MicrometerRetentionEvents.class);
  private final MeterRegistry registry;

  MicrometerRetentionEvents(MeterRegistry registry) {
    this.registry = registry;
  }

  @Override
  public void removed(RetentionKind kind, int rows) {
    if (registry != null) {
      registry.counter("clearway.retention.rows", "kind", tag(kind)).increment(rows);
    }
  }

  @Override
  public void failed(RetentionKind kind, RuntimeException error) {
    log.warn("retention batch of {} failed: {}", kind, error.getClass().getName());
    if (registry != null) {
      registry.counter("clearway.retention.failures", "kind", tag(kind)).increment();
    }
  }

  private static String tag(RetentionKind kind) {
    return kind.name().toLowerCase(Locale.ROOT);
  }
}
