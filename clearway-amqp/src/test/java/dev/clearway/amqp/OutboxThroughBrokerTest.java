package dev.clearway.amqp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.outbox.EventPublisher;
import dev.clearway.core.outbox.OutboxRelay;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.JdbcOutboxStore;
import dev.clearway.store.testing.TestDatabase;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The outbox relayed to {@code clearway.events} on the real broker: an event is marked published
 * only once the broker confirmed it, and a consumer that deduplicates by event id applies each
 * event's effect exactly once although the relay and the broker both deliver some twice.
 */
@Tag("rabbitmq")
class OutboxThroughBrokerTest {
  private final Clock clock = Clock.systemUTC();
  private final DataSource db = TestDatabase.get().dataSource();
  private final JdbcOutboxStore outbox = new JdbcOutboxStore(db);
  private final BrokerMetrics metrics = new BrokerMetrics(new SimpleMeterRegistry());
  private final BrokerConnection broker = TestBroker.connect(TestBroker.URL);

  @BeforeEach
  void reset() throws Exception {
    TestDatabase.get().reset();
    TestBroker.purge(ExactlyOnceLedger.QUEUE);
    ExactlyOnceLedger.bind();
    ExactlyOnceLedger.createTables(db);
  }

  @AfterEach
  void close() {
    broker.close();
  }

  @Test
  void eventsAreMarkedPublishedOnlyAfterTheirConfirmAndTakeEffectExactlyOnce() throws Exception {
    settlePayments(3);
    long events = outbox.pending();
    assertThat(events).isPositive();

    AmqpEventPublisher amqp = new AmqpEventPublisher(broker, metrics);
    List<Long> pendingWhilePublishing = new ArrayList<>();
    List<Long> queuedWhenConfirmed = new ArrayList<>();
    AtomicBoolean crashOnce = new AtomicBoolean(true);
    EventPublisher observed =
        event -> {
          pendingWhilePublishing.add(outbox.pending());
          amqp.publish(event);
          queuedWhenConfirmed.add(TestBroker.messages(ExactlyOnceLedger.QUEUE));
          if (crashOnce.getAndSet(false)) {
            // A relay that published, then died before marking: the event goes out again.
            throw new IllegalStateException("relay crashed before marking");
          }
        };
    OutboxRelay relay =
        new OutboxRelay(outbox, observed, clock, Duration.ZERO, 100, (loop, e) -> {});

    int first = relay.runOnce();
    int second = relay.runOnce();

    assertThat(first + second).isEqualTo(events);
    assertThat(outbox.pending()).isZero();
    // While an event was being published it was still pending; once confirmed, it was queued.
    assertThat(pendingWhilePublishing.get(0)).isEqualTo(events);
    for (int i = 0; i < queuedWhenConfirmed.size(); i++) {
      assertThat(queuedWhenConfirmed.get(i)).isEqualTo(i + 1);
    }

    try (ExactlyOnceLedger ledger = new ExactlyOnceLedger(db)) {
      WakeupThroughBrokerTest.await(
          () ->
              count("SELECT count(*) FROM amqp_test_seen") == events
                  && ledger.redeliveries() == events + 1,
          Duration.ofSeconds(20));
      assertThat(ledger.deliveries()).isEqualTo(2 * (events + 1));
      assertThat(count("SELECT count(*) FROM amqp_test_effect")).isEqualTo(events);
      assertThat(count("SELECT count(DISTINCT event_id) FROM amqp_test_effect")).isEqualTo(events);
      assertThat(count("SELECT count(*) FROM amqp_test_seen")).isEqualTo(events);
    }
    assertThat(metrics.publishFailures("event")).isZero();
  }

  private void settlePayments(int n) {
    SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
    TestEngine engine =
        new TestEngine(wallet, new SimBusiness(FaultPlan.none(), clock), WakeupScheduler.NONE);
    for (int i = 0; i < n; i++) {
      assertThat(
              engine
                  .payments
                  .start(
                      new NewPayment(
                          GoalKey.ofDefaultMerchant(10 + i, "renewal", "amqp-outbox-" + i),
                          100,
                          "CNY",
                          clock.instant().plusSeconds(120)))
                  .flow()
                  .status())
          .isEqualTo(FlowStatus.BIZ_SUCCESS);
    }
  }

  private long count(String sql) {
    try (java.sql.Connection c = db.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
