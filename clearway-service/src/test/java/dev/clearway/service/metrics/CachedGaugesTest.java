package dev.clearway.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.metrics.MicrometerChannelEvents;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The channel gauges over the store read it at most once per refresh period however often they are
 * scraped, and read it again once the period is over.
 */
class CachedGaugesTest {

  /** A clock the test moves. */
  private static final class StepClock extends Clock {
    private Instant now = Instant.parse("2025-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  void recoveryGaugesQueryTheStoreOncePerPeriod() {
    Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    StepClock clock = new StepClock();
    RecoveryTaskStore store =
        (RecoveryTaskStore)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {RecoveryTaskStore.class},
                (p, method, args) -> {
                  calls
                      .computeIfAbsent(method.getName(), n -> new AtomicInteger())
                      .incrementAndGet();
                  return switch (method.getName()) {
                    case "openTasks" -> 7L;
                    case "oldestOpenTask" -> Optional.of(clock.instant().minusSeconds(30));
                    default -> throw new UnsupportedOperationException(method.getName());
                  };
                });
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new MicrometerChannelEvents(registry, store, clock, Duration.ofSeconds(5));

    for (int i = 0; i < 50; i++) {
      assertThat(registry.get("clearway.channel.recovery.open").gauge().value()).isEqualTo(7.0);
      assertThat(registry.get("clearway.channel.recovery.oldest.age").gauge().value())
          .isEqualTo(30.0);
      clock.advance(Duration.ofMillis(50));
    }
    // 50 scrapes over 2.5 s: one reading each.
    assertThat(calls.get("openTasks")).hasValue(1);
    assertThat(calls.get("oldestOpenTask")).hasValue(1);

    clock.advance(Duration.ofSeconds(5));
    registry.get("clearway.channel.recovery.open").gauge().value();
    assertThat(calls.get("openTasks")).hasValue(2);
  }
}
