package dev.clearway.service.migration;

import dev.clearway.core.migration.decision.RoutingDecision;
import dev.clearway.core.migration.domain.HandBack;
import dev.clearway.core.migration.port.MigrationEvents;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.EnumMap;
import java.util.Map;

/**
 * {@code clearway.migration.handbacks{reason}} (Prometheus {@code
 * clearway_migration_handbacks_total}): answers that handed a goal back to the legacy path; {@code
 * clearway.migration.unknown{probe}}: answers refused because a probe could not answer. Every
 * series is registered at start, at zero.
 */
public final class MicrometerMigrationEvents implements MigrationEvents {
  private final Map<HandBack, Counter> handBacks = new EnumMap<>(HandBack.class);
  private final Counter markersUnknown;
  private final Counter storeUnknown;

  public MicrometerMigrationEvents(MeterRegistry registry) {
    for (HandBack reason : HandBack.values()) {
      handBacks.put(
          reason,
          Counter.builder("clearway.migration.handbacks")
              .description("goals handed back to the legacy payment path")
              .tag("reason", reason.label())
              .register(registry));
    }
    markersUnknown = unknownCounter(registry, RoutingDecision.MARKERS);
    storeUnknown = unknownCounter(registry, RoutingDecision.LEGACY_STORE);
  }

  private static Counter unknownCounter(MeterRegistry registry, String probe) {
    return Counter.builder("clearway.migration.unknown")
        .description("requests refused because a legacy probe could not answer")
        .tag("probe", probe)
        .register(registry);
  }

  @Override
  public void handedBack(HandBack reason) {
    handBacks.get(reason).increment();
  }

  @Override
  public void unknown(String probe) {
    (RoutingDecision.MARKERS.equals(probe) ? markersUnknown : storeUnknown).increment();
  }
}
