package dev.clearway.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.service.testkit.MutableClock;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The console's last hour: each step counts what ended within it (not since the start), the share
 * of UNKNOWN answers among the step's answers, the oldest open flow at the step's end; 60 steps
 * kept, oldest first; the running step comes last and partial.
 */
class ConsoleTimeSeriesTest {
  private static final Instant T0 = Instant.parse("2026-12-02T03:00:00Z");

  @Test
  void aStepCountsThePaymentsThatEndedInItByOutcomeAndTheShareOfUnknownAnswers() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    MicrometerEngineEvents events = new MicrometerEngineEvents(registry);
    AtomicLong oldestPaying = new AtomicLong();
    Gauge.builder("clearway.flows.oldest.age.seconds", oldestPaying, AtomicLong::get)
        .tag("state", "PAYING")
        .register(registry);
    MutableClock clock = new MutableClock(T0);
    try (ConsoleTimeSeries series = new ConsoleTimeSeries(registry, clock, Duration.ofHours(1))) {
      events.transitioned(FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS, Duration.ZERO);
      events.externalCall("PAY", "SUCCESS");
      events.externalCall("PAY", "UNKNOWN");
      clock.advance(Duration.ofMinutes(1));
      series.sample();

      events.transitioned(FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS, Duration.ZERO);
      events.transitioned(FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS, Duration.ZERO);
      events.transitioned(FlowStatus.PAYING, FlowStatus.PAY_FAIL, Duration.ZERO);
      // Calls that are not wallet answers about a payment do not enter the share.
      events.externalCall("BIZ_CALL", "UNKNOWN");
      oldestPaying.set(420);
      clock.advance(Duration.ofMinutes(1));
      series.sample();

      List<MinuteSample> hour = series.lastHour();
      assertThat(hour).hasSize(3);
      assertThat(hour.get(0).payments()).containsEntry("BIZ_SUCCESS", 1L);
      assertThat(hour.get(0).unknownShare()).isEqualTo(0.5);
      assertThat(hour.get(0).at()).isEqualTo(T0.plusSeconds(60));
      assertThat(hour.get(1).payments())
          .containsEntry("BIZ_SUCCESS", 2L)
          .containsEntry("PAY_FAIL", 1L)
          .containsEntry("REFUNDED", 0L);
      assertThat(hour.get(1).unknownShare()).isNull();
      assertThat(hour.get(1).oldestOpenAgeSeconds()).isEqualTo(420);
      assertThat(hour.get(1).partial()).isFalse();

      events.transitioned(FlowStatus.REFUNDING, FlowStatus.REFUNDED, Duration.ZERO);
      MinuteSample running = series.lastHour().get(2);
      assertThat(running.partial()).isTrue();
      assertThat(running.payments()).containsEntry("REFUNDED", 1L).containsEntry("BIZ_SUCCESS", 0L);
    }
  }

  @Test
  void theRingKeepsTheLastSixtyStepsOldestFirst() {
    TimeSeriesRing ring = new TimeSeriesRing(ConsoleTimeSeries.STEPS);
    IntStream.range(0, 75)
        .forEach(
            i -> ring.add(new MinuteSample(T0.plusSeconds(60L * i), Map.of(), null, i, false)));
    List<MinuteSample> kept = ring.samples();
    assertThat(kept).hasSize(60);
    assertThat(kept.get(0).oldestOpenAgeSeconds()).isEqualTo(15);
    assertThat(kept.get(59).oldestOpenAgeSeconds()).isEqualTo(74);
    assertThatThrownBy(() -> new TimeSeriesRing(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theMetersAlertRulesReadExistAtZeroBeforeTheFirstEvent() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new MicrometerEngineEvents(registry);
    assertThat(
            registry.find("clearway.transitions").tag("from", "PAYED").counters().stream()
                .map(c -> c.getId().getTag("to")))
        .containsExactlyInAnyOrder("BIZ_SUCCESS", "REFUNDING");
    assertThat(Search.in(registry).name("clearway.escalations").counters()).hasSize(4);
    assertThat(registry.find("clearway.state.dwell").tag("state", "PAYING").timer()).isNotNull();
    assertThat(
            registry
                .find("clearway.cas.conflicts")
                .tag("outcome", "CONTRADICTION")
                .tag("intended", "BIZ_SUCCESS")
                .tag("found", "REFUNDING")
                .counter())
        .isNotNull();
    assertThat(registry.find("clearway.scanner.hits").counter().count()).isZero();
  }
}
