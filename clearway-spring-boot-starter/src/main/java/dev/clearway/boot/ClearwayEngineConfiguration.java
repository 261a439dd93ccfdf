package dev.clearway.boot;

import dev.clearway.boot.metrics.MicrometerOverloadEvents;
import dev.clearway.boot.metrics.MicrometerWorkerFailures;
import dev.clearway.business.http.HttpBusinessGateway;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.PacedWallet;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.OverloadEvents;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.flow.port.WorkerFailures;
import dev.clearway.core.runtime.Supervision;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.Schema;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.SqlDialects;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Embeds the engine in a Spring Boot application: give it a {@link DataSource} (PostgreSQL), a
 * {@link WalletGateway} and a {@link BusinessGateway} bean (or {@code clearway.business.url} and
 * {@code secret} for the business system behind the business contract), import this configuration,
 * and inject {@link PaymentService}. Workers, scanner and wake-ups start with the context and stop
 * with it. Wake-ups are in process unless the broker's wake-ups are there ({@link
 * ClearwayBrokerAutoConfiguration}). With {@code clearway.budget.wallet-qps} the wallet's calls are
 * paced ({@link PacedWallet}), through the {@link CallBudget} bean if there is one (shared by all
 * nodes), in-process otherwise.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ClearwayProperties.class, ClearwayBudgetProperties.class})
public class ClearwayEngineConfiguration {

  /** The dialect of the application's database, from its JDBC URL. */
  @Bean
  @ConditionalOnMissingBean
  SqlDialect clearwayDialect(DataSource dataSource) {
    return SqlDialects.forDataSource(dataSource);
  }

  @Bean
  FlowStore clearwayFlowStore(
      DataSource dataSource, SqlDialect dialect, ClearwayProperties properties) {
    if (properties.migrateOrDefault()) {
      Schema.migrate(dataSource, dialect);
    }
    return new JdbcFlowStore(dataSource, dialect);
  }

  /**
   * Failures of every background loop (workers, scanners, wake-ups, outbox relay, channel workers):
   * logged with their cause and counted in {@code clearway.worker.failures{loop}}.
   */
  @Bean
  @ConditionalOnMissingBean
  WorkerFailures clearwayWorkerFailures(ObjectProvider<MeterRegistry> meters) {
    return new MicrometerWorkerFailures(meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  /** Work refused by a full queue, counted in {@code clearway.overload.rejected{pool}}. */
  @Bean
  @ConditionalOnMissingBean
  OverloadEvents clearwayOverloadEvents(ObjectProvider<MeterRegistry> meters) {
    return new MicrometerOverloadEvents(meters.getIfAvailable(SimpleMeterRegistry::new));
  }

  /**
   * This process as a node of the deployment: its instance id, and the release of its leases when
   * the context closes (after the engines that depend on it have stopped).
   */
  @Bean(destroyMethod = "close")
  ClearwayNode clearwayNode(
      DataSource dataSource, ObjectProvider<Clock> clock, ClearwayProperties properties) {
    return new ClearwayNode(
        properties.instanceIdOrRandom(), dataSource, clock.getIfAvailable(Clock::systemUTC));
  }

  /**
   * The business system over the business contract, when {@code clearway.business.url} is set and
   * the application declares no {@link BusinessGateway} of its own.
   */
  @Bean
  @ConditionalOnMissingBean(BusinessGateway.class)
  @ConditionalOnProperty(prefix = "clearway.business", name = "url")
  HttpBusinessGateway clearwayBusinessGateway(ClearwayProperties properties) {
    return HttpBusinessGateway.of(properties.business().config());
  }

  @Bean(destroyMethod = "close")
  EngineAssembly clearwayEngine(
      ClearwayNode node,
      FlowStore store,
      WalletGateway wallet,
      BusinessGateway business,
      ObjectProvider<EngineEvents> events,
      ObjectProvider<Clock> clock,
      ClearwayProperties properties,
      WorkerFailures failures,
      OverloadEvents overload,
      ObjectProvider<BrokerWakeups> brokerWakeups,
      ClearwayBudgetProperties budgetProperties,
      ObjectProvider<CallBudget> budget) {
    Clock engineClock = clock.getIfAvailable(Clock::systemUTC);
    Integer walletQps = budgetProperties.walletQps();
    WalletGateway paced =
        walletQps == null
            ? wallet
            : new PacedWallet(
                wallet,
                budget.getIfAvailable(PacedRateLimiter::new),
                walletQps,
                Duration.ofSeconds(1),
                engineClock);
    return new EngineAssembly(
            store,
            paced,
            business,
            events.getIfAvailable(() -> EngineEvents.NONE),
            properties.compressed() ? EngineConfig.compressed() : EngineConfig.production(),
            engineClock,
            node.instanceId(),
            properties.workersOrDefault(),
            inProcess -> brokerWakeupsOr(brokerWakeups, BrokerWakeups.FLOW, inProcess),
            properties.queueLimits(),
            new Supervision(failures, overload))
        .start();
  }

  /**
   * The broker's wake-ups of {@code kind} when a broker is configured (found by their own type, so
   * no other bean is resolved for it), else the in-process ones.
   */
  public static WakeupScheduler brokerWakeupsOr(
      ObjectProvider<BrokerWakeups> brokerWakeups, String kind, WakeupScheduler inProcess) {
    BrokerWakeups broker = brokerWakeups.getIfAvailable();
    return broker == null ? inProcess : broker.of(kind);
  }

  @Bean
  PaymentService clearwayPaymentService(EngineAssembly engine) {
    return engine.payments();
  }
}
