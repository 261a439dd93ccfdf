package dev.clearway.service.retention;

import dev.clearway.boot.ClearwayNode;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.retention.RetentionRun;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.retention.JdbcRetentionLease;
import dev.clearway.store.retention.JdbcRetentionStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The retention job of the service ({@link RetentionSettings}: {@code clearway.retention.*}):
 * idempotency records, inboxes and published events purged by age, terminal flows moved to the
 * archive, one node at a time under the lease row of {@code retention_lease}.
 */
@Configuration(proxyBeanMethods = false)
public class RetentionConfiguration {

  /** Takes the flow store so that Clearway's migrations (V28 included) have run first. */
  @Bean(destroyMethod = "close")
  RetentionJob clearwayRetentionJob(
      DataSource dataSource,
      SqlDialect dialect,
      FlowStore migratedFirst,
      ClearwayNode node,
      ObjectProvider<MeterRegistry> registry,
      ObjectProvider<Clock> clock,
      Environment environment) {
    RetentionSettings settings = RetentionSettings.read(environment);
    RetentionRun run =
        new RetentionRun(
            new JdbcRetentionStore(dataSource, dialect),
            new JdbcRetentionLease(dataSource),
            settings.policy(),
            new MicrometerRetentionEvents(registry.getIfAvailable()),
            clock.getIfAvailable(Clock::systemUTC));
    RetentionJob job = new RetentionJob(run, node.instanceId() + "/retention", settings.lease());
    return settings.enabled() ? job.start(settings.interval()) : job;
  }
}
