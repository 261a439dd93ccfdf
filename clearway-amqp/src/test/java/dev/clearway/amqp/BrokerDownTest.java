package dev.clearway.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.outbox.OutboxRelay;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.JdbcOutboxStore;
import dev.clearway.store.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The broker away (a closed port), then back (the real broker): publishes fail fast and are
 * counted, the scanner finishes the flows whose wake-ups were lost, the outbox keeps its events
 * pending, and everything catches up once the broker is there.
 */
@Tag("rabbitmq")
class BrokerDownTest {
  private final Clock clock = Clock.systemUTC();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final BrokerMetrics metrics = new BrokerMetrics(meters);
  private final JdbcOutboxStore outbox = new JdbcOutboxStore(TestDatabase.get().dataSource());
  private final SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
  private final SimBusiness business = new SimBusiness(FaultPlan.none(), clock);

  @BeforeEach
  void reset() throws Exception {
    TestDatabase.get().reset();
    TestBroker.purge(ExactlyOnceLedger.QUEUE);
    ExactlyOnceLedger.bind();
  }

  @Test
  void nothingIsLostAndNothingStopsWhileTheBrokerIsDownAndAllCatchesUpAfter() throws Exception {
    List<Long> flows = new ArrayList<>();
    AtomicInteger relayFailures = new AtomicInteger();
    try (BrokerConnection down = TestBroker.connect(TestBroker.DOWN)) {
      TestEngine engine =
          new TestEngine(
              new ProcessingOnce(wallet), business, new AmqpWakeups(down, "flow", clock, metrics));

      Instant started = clock.instant();
      for (int i = 0; i < 3; i++) {
        PayFlow left = engine.payments.start(payment(i)).flow();
        assertThat(left.status()).isEqualTo(FlowStatus.PAYING);
        flows.add(left.id());
      }
      // Each step that left a flow for later tried to publish its wake-up and failed fast.
      assertThat(Duration.between(started, clock.instant())).isLessThan(Duration.ofSeconds(5));
      assertThat(metrics.publishFailures("wakeup")).isEqualTo(3);

      // The scanner finds the flows the lost wake-ups would have woken.
      WakeupThroughBrokerTest.await(
          () -> {
            engine.scan();
            return flows.stream().allMatch(id -> engine.store.find(id).orElseThrow().isTerminal());
          },
          Duration.ofSeconds(30));
      for (long id : flows) {
        assertThat(engine.store.find(id).orElseThrow().status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
      }

      // The outbox keeps every event pending, the relay goes on.
      long events = outbox.pending();
      assertThat(events).isPositive();
      OutboxRelay relay =
          new OutboxRelay(
              outbox,
              new AmqpEventPublisher(down, metrics),
              clock,
              Duration.ZERO,
              100,
              (loop, e) -> relayFailures.incrementAndGet());
      assertThat(relay.runOnce()).isZero();
      assertThat(outbox.pending()).isEqualTo(events);
      assertThat(outbox.oldestPending()).get().matches(t -> !t.isAfter(clock.instant()));
      assertThat(relayFailures.get()).isEqualTo((int) events);
      assertThat(metrics.publishFailures("event")).isEqualTo(events);
    }

    // The broker is back: the relay catches up, wake-ups flow again.
    try (BrokerConnection back = TestBroker.connect(TestBroker.URL)) {
      long events = outbox.pending();
      OutboxRelay relay =
          new OutboxRelay(
              outbox,
              new AmqpEventPublisher(back, metrics),
              clock,
              Duration.ZERO,
              100,
              (l, e) -> {});
      assertThat(relay.runOnce()).isEqualTo((int) events);
      assertThat(outbox.pending()).isZero();
      assertThat(outbox.oldestPending()).isEmpty();
      assertThat(TestBroker.messages(ExactlyOnceLedger.QUEUE)).isEqualTo(events);

      new AmqpWakeups(back, "flow", clock, metrics).schedule(flows.get(0), clock.instant());
      assertThat(TestBroker.messages(Topology.WORK_QUEUE)).isEqualTo(1);
      assertThat(metrics.publishFailures("wakeup")).isEqualTo(3);
    }
  }

  private NewPayment payment(int i) {
    return new NewPayment(
        GoalKey.ofDefaultMerchant(20 + i, "renewal", "amqp-down-" + i),
        100,
        "CNY",
        clock.instant().plusSeconds(120));
  }
}
