package dev.clearway.app.server;

import dev.clearway.app.api.ApiConfiguration;
import dev.clearway.app.console.ConsoleConfiguration;
import dev.clearway.app.outbox.OutboxConfiguration;
import dev.clearway.app.policy.PolicyApiConfiguration;
import dev.clearway.app.refund.RefundConfiguration;
import dev.clearway.app.review.ReviewConfiguration;
import dev.clearway.app.spring.ClearwayEngineConfiguration;
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
  PolicyApiConfiguration.class
})
public class ClearwayServer {}
