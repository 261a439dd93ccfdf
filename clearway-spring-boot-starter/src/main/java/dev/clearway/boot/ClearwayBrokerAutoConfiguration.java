package dev.clearway.boot;

import dev.clearway.amqp.AmqpEventPublisher;
import dev.clearway.amqp.AmqpWakeups;
import dev.clearway.amqp.BrokerConnection;
import dev.clearway.amqp.BrokerMetrics;
import dev.clearway.amqp.BrokerSettings;
import dev.clearway.amqp.DelayTiers;
import dev.clearway.amqp.Topology;
import dev.clearway.amqp.WakeupConsumer;
import dev.clearway.amqp.WakeupHandler;
import dev.clearway.boot.channel.ChannelLayer;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.outbox.EventPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * RabbitMQ instead of the in-process wake-ups and event bus, when clearway-amqp is on the class
 * path and {@code clearway.broker.url} is set: the flow engine's wake-ups go through the broker's
 * delay tiers ({@link BrokerWakeups}, kind {@code flow}), the outbox relay publishes to {@code
 * clearway.events} ({@value #BROKER_EVENTS}), and a consumer advances the flows (and every other
 * kind declared as a {@link BrokerWakeupRoute} bean: refunds, recovery tasks, late-charge checks)
 * whose wake-ups are due. Each route's handler re-reads and claims its row, so a stale, duplicated
 * or early wake-up does nothing harmful.
 */
@AutoConfiguration(before = ClearwayAutoConfiguration.class)
@ConditionalOnClass(name = "dev.clearway.amqp.BrokerConnection")
@ConditionalOnProperty(prefix = "clearway.broker", name = "url")
@EnableConfigurationProperties(ClearwayBrokerProperties.class)
public class ClearwayBrokerAutoConfiguration {
  /** Bean name of the flow engine's broker wake-ups. */
  public static final String FLOW_WAKEUPS = "clearwayFlowWakeups";

  /** Bean name of the outbox's broker publisher. */
  public static final String BROKER_EVENTS = "clearwayBrokerEvents";

  @Bean(destroyMethod = "close")
  BrokerConnection clearwayBrokerConnection(
      ClearwayBrokerProperties properties, ObjectProvider<Clock> clock) {
    return new BrokerConnection(
        BrokerSettings.of(properties.url()),
        new Topology(DelayTiers.standard()),
        clock.getIfAvailable(Clock::systemUTC));
  }

  @Bean
  BrokerMetrics clearwayBrokerMetrics(ObjectProvider<MeterRegistry> meters) {
    return new BrokerMetrics(meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  /** Wake-ups through the broker, one publisher per kind of row (flows, refunds, ...). */
  @Bean
  BrokerWakeups clearwayBrokerWakeups(
      BrokerConnection broker, BrokerMetrics metrics, ObjectProvider<Clock> clock) {
    Clock wakeupClock = clock.getIfAvailable(Clock::systemUTC);
    return new BrokerWakeups(kind -> new AmqpWakeups(broker, kind, wakeupClock, metrics));
  }

  @Bean(FLOW_WAKEUPS)
  WakeupScheduler clearwayFlowWakeups(BrokerWakeups wakeups) {
    return wakeups.of(BrokerWakeups.FLOW);
  }

  @Bean(BROKER_EVENTS)
  EventPublisher clearwayBrokerEvents(BrokerConnection broker, BrokerMetrics metrics) {
    return new AmqpEventPublisher(broker, metrics);
  }

  /**
   * Recovery tasks whose wake-ups are due: the channel layer's recovery worker claims the task if a
   * claim round would (due, or its lease expired) and runs it. The layer is looked up when a
   * wake-up arrives, so that no channel-layer bean is created early for this route.
   */
  @Bean
  BrokerWakeupRoute clearwayRecoveryWakeupRoute(ObjectProvider<ChannelLayer> channel) {
    return new BrokerWakeupRoute(
        BrokerWakeups.RECOVERY,
        attemptId -> {
          ChannelLayer layer = channel.getIfAvailable();
          if (layer != null) {
            layer.recovery().runOne(attemptId);
          }
        });
  }

  /** Consumes due wake-ups: a flow's wake-up claims, re-reads and steps it. */
  @Bean(destroyMethod = "close")
  WakeupConsumer clearwayWakeupConsumer(
      BrokerConnection broker,
      BrokerMetrics metrics,
      EngineAssembly engine,
      ObjectProvider<BrokerWakeupRoute> routes,
      ObjectProvider<Clock> clock,
      ClearwayBrokerProperties properties) {
    Map<String, WakeupHandler> handlers = new HashMap<>();
    handlers.put(
        BrokerWakeups.FLOW,
        id -> engine.advancer().advance(id, Trigger.unclaimed(TriggerSource.WAKEUP)));
    routes.orderedStream().forEach(r -> handlers.put(r.kind(), r.handler()));
    return new WakeupConsumer(
            broker,
            handlers,
            clock.getIfAvailable(Clock::systemUTC),
            metrics,
            new WakeupConsumer.Settings(
                properties.consumersOrDefault(), 8, 5, Duration.ofMillis(200)))
        .start();
  }
}
