package dev.clearway.service.outbox;

import dev.clearway.boot.ClearwayBrokerAutoConfiguration;
import dev.clearway.boot.metrics.CachedReading;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WorkerFailures;
import dev.clearway.core.outbox.EventPublisher;
import dev.clearway.core.outbox.OutboxRelay;
import dev.clearway.core.outbox.OutboxStore;
import dev.clearway.store.JdbcOutboxStore;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The outbox relay: every 200 ms, deliver pending domain events to the broker (when configured) and
 * the in-process bus.
 */
@Configuration(proxyBeanMethods = false)
public class OutboxConfiguration {
  /**
   * Takes the flow store so that Clearway's migrations (V8 included) have run first. The pending
   * gauge and the oldest pending event's age ({@code clearway.outbox.oldest.age}) are read from the
   * database at most once per {@code clearway.metrics.refresh} (default 5 s).
   */
  @Bean
  OutboxStore outboxStore(
      DataSource dataSource,
      FlowStore flows,
      MeterRegistry meters,
      ObjectProvider<Clock> clock,
      @Value("${clearway.metrics.refresh:5s}") Duration refresh) {
    JdbcOutboxStore store = new JdbcOutboxStore(dataSource);
    CachedReading pending =
        new CachedReading(
            "clearway.outbox.pending",
            store::pending,
            refresh,
            clock.getIfAvailable(Clock::systemUTC));
    Gauge.builder("clearway.outbox.pending", pending, CachedReading::get)
        .description("Domain events not yet published")
        .strongReference(true)
        .register(meters);
    Clock now = clock.getIfAvailable(Clock::systemUTC);
    CachedReading oldest =
        new CachedReading(
            "clearway.outbox.oldest.age",
            () ->
                store
                    .oldestPending()
                    .map(t -> Math.max(0, now.millis() - t.toEpochMilli()) / 1000.0)
                    .orElse(0.0),
            refresh,
            now);
    Gauge.builder("clearway.outbox.oldest.age", oldest, CachedReading::get)
        .description("Age in seconds of the oldest domain event not yet published (0: none)")
        .baseUnit("seconds")
        .strongReference(true)
        .register(meters);
    return store;
  }

  @Bean
  InProcessEventBus eventBus(MeterRegistry meters) {
    return new InProcessEventBus(meters);
  }

  /**
   * Events go to the broker's {@code clearway.events} when {@code clearway.broker.url} is set and,
   * after its confirm, to the in-process bus too ({@link BrokerThenBus}); else to the in-process
   * bus only. A relay pass that fails (the database is away) and an event the bus refuses are
   * reported to {@link WorkerFailures} (logged with the cause, counted in {@code
   * clearway.worker.failures{loop="outbox-relay"|"outbox-publish"}}); the next pass retries.
   */
  @Bean(destroyMethod = "shutdownNow")
  ScheduledExecutorService outboxRelay(
      OutboxStore store,
      InProcessEventBus bus,
      @Qualifier(ClearwayBrokerAutoConfiguration.BROKER_EVENTS)
          ObjectProvider<EventPublisher> broker,
      ObjectProvider<Clock> clock,
      WorkerFailures failures) {
    EventPublisher brokerEvents = broker.getIfAvailable();
    OutboxRelay relay =
        new OutboxRelay(
            store,
            brokerEvents == null ? bus : new BrokerThenBus(brokerEvents, bus),
            clock.getIfAvailable(Clock::systemUTC),
            Duration.ofSeconds(30),
            200,
            failures);
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "clearway-outbox-relay");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            relay.runOnce();
          } catch (Throwable t) {
            // Caught whole: a task that throws would end the schedule without a word.
            failures.failed("outbox-relay", t);
          }
        },
        200,
        200,
        TimeUnit.MILLISECONDS);
    return timer;
  }
}
