package dev.clearway.service.node;

import dev.clearway.store.SqlDialect;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * What makes this process one node among several on one database: the intake switch every node
 * reads ({@code clearway.intake.cache}, default 1 s), and the shutdown gate that refuses new
 * payments first when the node stops ({@code clearway.shutdown.grace}, default 20 s).
 */
@Configuration(proxyBeanMethods = false)
@Import(IntakeController.class)
public class NodeConfiguration {

  @Bean
  IntakeSwitch intakeSwitch(
      DataSource dataSource,
      SqlDialect dialect,
      ObjectProvider<Clock> clock,
      @Value("${clearway.intake.cache:1s}") Duration cache) {
    return new IntakeSwitch(dataSource, dialect, clock.getIfAvailable(Clock::systemUTC), cache);
  }

  /** {@code db} in the readiness group (application.properties); never in liveness. */
  @Bean
  DatabaseHealth db(DataSource dataSource) {
    return new DatabaseHealth(dataSource);
  }

  @Bean
  ShutdownGate shutdownGate(@Value("${clearway.shutdown.grace:20s}") Duration grace) {
    return new ShutdownGate(grace);
  }

  @Bean
  PaymentIntake paymentIntake(ShutdownGate shutdown, IntakeSwitch intake) {
    return new PaymentIntake(shutdown, intake);
  }
}
