package dev.clearway.service.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.metrics.MicrometerChannelEvents;
import dev.clearway.core.channel.port.RecoveryTaskStore;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.service.refund.MicrometerRefundEvents;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine's events become meters whose names start with clearway. */
class MicrometerEngineEventsTest {

  @Test
  void transitionsCountByEdgeAndRecordTheDwellOfTheStateLeft() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    MicrometerEngineEvents events = new MicrometerEngineEvents(registry);

    events.transitioned(FlowStatus.PAYING, FlowStatus.PAYED, Duration.ofMillis(1_500));
    events.transitioned(FlowStatus.PAYING, FlowStatus.PAYED, Duration.ofMillis(500));
    events.transitioned(FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS, Duration.ofMillis(20));

    assertThat(registry.counter("clearway.transitions", "from", "PAYING", "to", "PAYED").count())
        .isEqualTo(2);
    Timer paying = registry.find("clearway.state.dwell").tag("state", "PAYING").timer();
    assertThat(paying).isNotNull();
    assertThat(paying.count()).isEqualTo(2);
    assertThat(paying.max(TimeUnit.MILLISECONDS)).isEqualTo(1_500);
    assertThat(registry.find("clearway.state.dwell").tag("state", "PAYED").timer().count())
        .isEqualTo(1);
  }

  @Test
  void conflictsCallsAndScannerRoundsAreCounted() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    MicrometerEngineEvents events = new MicrometerEngineEvents(registry);

    events.casConflict(FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS, "IDEMPOTENT");
    events.externalCall("PAY", "UNKNOWN");
    events.externalCall("PAY", "SUCCESS");
    events.scannerRound(7, 12);

    assertThat(
            registry
                .find("clearway.cas.conflicts")
                .tag("outcome", "IDEMPOTENT")
                .tag("intended", "PAYED")
                .tag("found", "BIZ_SUCCESS")
                .counter()
                .count())
        .isEqualTo(1);
    assertThat(
            registry.counter("clearway.external.calls", "kind", "PAY", "result", "UNKNOWN").count())
        .isEqualTo(1);
    assertThat(registry.counter("clearway.scanner.hits").count()).isEqualTo(7);
    assertThat(registry.find("clearway.scanner.round").timer().count()).isEqualTo(1);
  }

  @Test
  void writesRefusedForALostLeaseAreCountedByTableInTheFlowRefundAndChannelEvents() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // The channel meters' gauges read the store only when scraped; this test never scrapes.
    RecoveryTaskStore unread =
        (RecoveryTaskStore)
            Proxy.newProxyInstance(
                RecoveryTaskStore.class.getClassLoader(),
                new Class<?>[] {RecoveryTaskStore.class},
                (proxy, method, args) -> {
                  throw new UnsupportedOperationException(method.getName());
                });
    MicrometerChannelEvents channel =
        new MicrometerChannelEvents(registry, unread, Clock.systemUTC());

    new MicrometerEngineEvents(registry).leaseLost("pay_flow");
    new MicrometerEngineEvents(registry).leaseLost("pay_flow");
    new MicrometerRefundEvents(registry).leaseLost("refund_order");
    channel.leaseLost("recovery_task");

    assertThat(registry.counter("clearway.lease.lost", "table", "pay_flow").count()).isEqualTo(2);
    assertThat(registry.counter("clearway.lease.lost", "table", "refund_order").count())
        .isEqualTo(1);
    assertThat(registry.counter("clearway.lease.lost", "table", "recovery_task").count())
        .isEqualTo(1);
  }
}
