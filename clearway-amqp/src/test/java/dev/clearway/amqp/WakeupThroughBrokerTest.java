package dev.clearway.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Wake-ups through the real broker and the real engine on the embedded PostgreSQL: a delayed
 * wake-up waits its tier and advances the flow; duplicated, stale and early wake-ups do nothing
 * harmful; one whose handler keeps failing ends in the dead queue.
 */
@Tag("rabbitmq")
class WakeupThroughBrokerTest {
  private final Clock clock = Clock.systemUTC();
  private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  private final BrokerMetrics metrics = new BrokerMetrics(meters);
  private final BrokerConnection broker = TestBroker.connect(TestBroker.URL);
  private final AmqpWakeups wakeups = new AmqpWakeups(broker, "flow", clock, metrics);
  private final SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
  private final SimBusiness business = new SimBusiness(FaultPlan.none(), clock);
  private final List<Instant> handled = new CopyOnWriteArrayList<>();
  private WakeupConsumer consumer;

  @BeforeEach
  void reset() throws Exception {
    TestDatabase.get().reset();
    TestBroker.purge();
  }

  @AfterEach
  void close() {
    if (consumer != null) {
      consumer.close();
    }
    broker.close();
  }

  private void consume(TestEngine engine, WakeupConsumer.Settings settings) {
    WakeupHandler advance = engine.wakeupHandler();
    consumer =
        new WakeupConsumer(
                broker,
                Map.of(
                    "flow",
                    id -> {
                      handled.add(clock.instant());
                      advance.wake(id);
                    },
                    "broken",
                    id -> {
                      handled.add(clock.instant());
                      throw new IllegalStateException("handler fails");
                    }),
                clock,
                metrics,
                settings)
            .start();
  }

  @Test
  void aWakeupPublishedWithATwoSecondDelayIsConsumedAfterTwoSecondsAndAdvancesTheFlow()
      throws Exception {
    TestEngine engine = new TestEngine(wallet, business, wakeups);
    consume(engine, WakeupConsumer.Settings.defaults());
    Instant now = clock.instant();
    // A creator that inserted the row and died; no scanner runs in this test.
    PayFlow orphan =
        engine
            .store
            .createAttempt(
                new NewPayment(
                    GoalKey.ofDefaultMerchant(1, "renewal", "amqp-delay"),
                    500,
                    "CNY",
                    now.plusSeconds(120)),
                new Lease("dead-creator", now.minusSeconds(1)),
                now)
            .flow();

    Instant published = clock.instant();
    wakeups.schedule(orphan.id(), published.plusSeconds(2));

    await(() -> engine.store.find(orphan.id()).orElseThrow().isTerminal(), Duration.ofSeconds(20));
    assertThat(engine.store.find(orphan.id()).orElseThrow().status())
        .isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(handled).hasSize(1);
    assertThat(Duration.between(published, handled.get(0))).isGreaterThanOrEqualTo(seconds(2));
    assertThat(meters.timer("clearway.broker.wakeup.lag").count()).isEqualTo(1);
    assertThat(metrics.publishFailures("wakeup")).isZero();
  }

  @Test
  void aStepThatLeavesAFlowForLaterWakesItThroughTheBroker() throws Exception {
    TestEngine engine = new TestEngine(new ProcessingOnce(wallet), business, wakeups);
    consume(engine, WakeupConsumer.Settings.defaults());

    PayFlow left =
        engine
            .payments
            .start(
                new NewPayment(
                    GoalKey.ofDefaultMerchant(2, "renewal", "amqp-left"),
                    700,
                    "CNY",
                    clock.instant().plusSeconds(120)))
            .flow();
    assertThat(left.status()).isEqualTo(FlowStatus.PAYING);
    Instant due = engine.store.find(left.id()).orElseThrow().nextRetryTime();

    await(() -> engine.store.find(left.id()).orElseThrow().isTerminal(), Duration.ofSeconds(20));
    assertThat(engine.store.find(left.id()).orElseThrow().status())
        .isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(handled).isNotEmpty();
    assertThat(handled.get(0)).isAfterOrEqualTo(due);
    assertThat(wallet.ledger()).hasSize(1);
  }

  @Test
  void duplicatedStaleAndEarlyWakeupsDoNothingHarmful() throws Exception {
    TestEngine engine = new TestEngine(wallet, business, wakeups);
    PayFlow done =
        engine
            .payments
            .start(
                new NewPayment(
                    GoalKey.ofDefaultMerchant(3, "renewal", "amqp-dup"),
                    300,
                    "CNY",
                    clock.instant().plusSeconds(120)))
            .flow();
    assertThat(done.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    long versionBefore = engine.store.find(done.id()).orElseThrow().version();
    consume(engine, WakeupConsumer.Settings.defaults());

    // The same wake-up twice, due now, for a flow that already ended (stale and duplicated).
    wakeups.schedule(done.id(), clock.instant());
    wakeups.schedule(done.id(), clock.instant());
    await(() -> handled.size() == 2, Duration.ofSeconds(10));

    // An early one: due in 3 s but put straight on the work queue (another node's clock).
    Instant early = clock.instant().plusSeconds(3);
    publishRaw(Wakeup.first("flow", done.id(), early));
    await(() -> handled.size() == 3, Duration.ofSeconds(20));

    assertThat(handled.get(2)).isAfterOrEqualTo(early.minusMillis(200));
    assertThat(metrics.count("clearway.broker.wakeups.redelayed")).isEqualTo(1);
    PayFlow after = engine.store.find(done.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(after.version()).isEqualTo(versionBefore);
    assertThat(wallet.ledger()).hasSize(1);
    assertThat(business.grants()).hasSize(1);
  }

  @Test
  void aWakeupWhoseHandlerKeepsFailingGoesToTheDeadQueueAndIsCounted() throws Exception {
    TestEngine engine = new TestEngine(wallet, business, wakeups);
    consume(engine, new WakeupConsumer.Settings(1, 4, 3, Duration.ofMillis(200)));

    new AmqpWakeups(broker, "broken", clock, metrics).schedule(42, clock.instant());

    await(() -> metrics.count("clearway.broker.dead.letters") == 1, Duration.ofSeconds(20));
    assertThat(handled).hasSize(3);
    await(() -> messages(Topology.DEAD_QUEUE) == 1, Duration.ofSeconds(5));
    assertThat(messages(Topology.DEAD_QUEUE)).isEqualTo(1);
  }

  private void publishRaw(Wakeup wakeup) throws Exception {
    try (Connection c = TestBroker.factory().newConnection();
        Channel ch = c.createChannel()) {
      ch.confirmSelect();
      ch.basicPublish("", Topology.WORK_QUEUE, wakeup.properties(), wakeup.body());
      ch.waitForConfirmsOrDie(5_000);
    }
  }

  private static long messages(String queue) {
    try {
      return TestBroker.messages(queue);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static Duration seconds(long s) {
    return Duration.ofSeconds(s);
  }

  static void await(BooleanSupplier condition, Duration limit) throws InterruptedException {
    Instant giveUp = Instant.now().plus(limit);
    while (!condition.getAsBoolean() && Instant.now().isBefore(giveUp)) {
      Thread.sleep(50);
    }
  }
}
