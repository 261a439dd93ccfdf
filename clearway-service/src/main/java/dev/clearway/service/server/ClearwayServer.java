package dev.clearway.service.server;

import dev.clearway.boot.ClearwayEngineConfiguration;
import dev.clearway.service.api.ApiConfiguration;
import dev.clearway.service.console.ConsoleConfiguration;
import dev.clearway.service.metrics.MetricsConfiguration;
import dev.clearway.service.migration.MigrationConfiguration;
import dev.clearway.service.node.NodeConfiguration;
import dev.clearway.service.outbox.OutboxConfiguration;
import dev.clearway.service.policy.PolicyApiConfiguration;
import dev.clearway.service.reconciliation.ReconciliationConfiguration;
import dev.clearway.service.refund.RefundConfiguration;
import dev.clearway.service.refundbatch.RefundBatchConfiguration;
import dev.clearway.service.retention.RetentionConfiguration;
import dev.clearway.service.review.ReviewConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The service: engine and payment API in one Spring Boot application. Beans are imported, not
 * scanned, so that embedding applications and tests choose exactly what they get.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({
  ClearwayEngineConfiguration.class,
  ApiConfiguration.class,
  ReviewConfiguration.class,
  ConsoleConfiguration.class,
  RefundConfiguration.class,
  OutboxConfiguration.class,
  PolicyApiConfiguration.class,
  NodeConfiguration.class,
  ReconciliationConfiguration.class,
  RetentionConfiguration.class,
  RefundBatchConfiguration.class,
  MetricsConfiguration.class,
  MigrationConfiguration.class
})
public class ClearwayServer {}
