package dev.clearway.app.spring;

import dev.clearway.app.EngineAssembly;
import dev.clearway.core.engine.EngineConfig;
import dev.clearway.core.engine.PaymentService;
import dev.clearway.core.port.BusinessGateway;
import dev.clearway.core.port.EngineEvents;
import dev.clearway.core.port.FlowStore;
import dev.clearway.core.port.WalletGateway;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.Schema;
import dev.clearway.store.SqlDialect;
import java.time.Clock;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Embeds the engine in a Spring Boot application: give it a {@link DataSource} (PostgreSQL), a
 * {@link WalletGateway} and a {@link BusinessGateway} bean, import this configuration, and inject
 * {@link PaymentService}. Workers, scanner and wake-ups start with the context and stop with it.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ClearwayProperties.class)
public class ClearwayEngineConfiguration {

  @Bean
  SqlDialect clearwayDialect() {
    return new PostgresDialect();
  }

  @Bean
  FlowStore clearwayFlowStore(
      DataSource dataSource, SqlDialect dialect, ClearwayProperties properties) {
    if (properties.migrateOrDefault()) {
      Schema.migrate(dataSource, dialect);
    }
    return new JdbcFlowStore(dataSource, dialect);
  }

  @Bean(destroyMethod = "close")
  EngineAssembly clearwayEngine(
      FlowStore store,
      WalletGateway wallet,
      BusinessGateway business,
      ObjectProvider<EngineEvents> events,
      ObjectProvider<Clock> clock,
      ClearwayProperties properties) {
    return new EngineAssembly(
            store,
            wallet,
            business,
            events.getIfAvailable(() -> EngineEvents.NONE),
            properties.compressed() ? EngineConfig.compressed() : EngineConfig.production(),
            clock.getIfAvailable(Clock::systemUTC),
            properties.instanceIdOrRandom(),
            properties.workersOrDefault(),
            UnaryOperator.identity())
        .start();
  }

  @Bean
  PaymentService clearwayPaymentService(EngineAssembly engine) {
    return engine.payments();
  }
}
