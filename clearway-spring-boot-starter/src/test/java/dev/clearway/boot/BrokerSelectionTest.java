package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.amqp.AmqpEventPublisher;
import dev.clearway.amqp.AmqpWakeups;
import dev.clearway.amqp.WakeupConsumer;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** In-process wake-ups by default; {@code clearway.broker.url} selects RabbitMQ. */
class BrokerSelectionTest {

  @Configuration(proxyBeanMethods = false)
  @Import({ClearwayBrokerAutoConfiguration.class, ClearwayEngineConfiguration.class})
  static class Application {
    @Bean(destroyMethod = "")
    DataSource dataSource() {
      return TestDatabase.get().dataSource();
    }

    @Bean
    SimWallet wallet() {
      return new SimWallet(FaultPlan.none(), Clock.systemUTC());
    }

    @Bean
    SimBusiness business() {
      return new SimBusiness(FaultPlan.none(), Clock.systemUTC());
    }
  }

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  private static ConfigurableApplicationContext start(String... properties) {
    return new SpringApplicationBuilder(Application.class)
        .web(WebApplicationType.NONE)
        .properties("clearway.instance-id=broker", "clearway.timing=compressed")
        .properties(properties)
        .run();
  }

  @Test
  void withoutABrokerUrlWakeupsStayInProcess() {
    try (ConfigurableApplicationContext context = start()) {
      assertThat(context.getBeansOfType(AmqpWakeups.class)).isEmpty();
      assertThat(context.getBeansOfType(WakeupConsumer.class)).isEmpty();
      assertThat(context.getBean(EngineAssembly.class).wakeups()).isNotNull();
    }
  }

  @Test
  @Tag("rabbitmq")
  void aBrokerUrlSelectsRabbitMqForWakeupsAndEvents() throws Exception {
    String url = System.getProperty("clearway.test.rabbitmq", "amqp://guest:guest@127.0.0.1:5672");
    try (ConfigurableApplicationContext context = start("clearway.broker.url=" + url)) {
      assertThat(context.getBean(ClearwayBrokerAutoConfiguration.FLOW_WAKEUPS))
          .isInstanceOf(AmqpWakeups.class);
      assertThat(context.getBean(ClearwayBrokerAutoConfiguration.BROKER_EVENTS))
          .isInstanceOf(AmqpEventPublisher.class);
      WakeupConsumer consumer = context.getBean(WakeupConsumer.class);
      Instant giveUp = Instant.now().plusSeconds(10);
      while (consumer.subscribed() == 0 && Instant.now().isBefore(giveUp)) {
        Thread.sleep(50);
      }
      assertThat(consumer.subscribed()).isPositive();
      PaymentService payments = context.getBean(PaymentService.class);
      assertThat(
              payments
                  .start(
                      new NewPayment(
                          GoalKey.ofDefaultMerchant(9, "renewal", "broker-1"),
                          100,
                          "CNY",
                          Instant.now().plus(Duration.ofMinutes(1))))
                  .flow()
                  .status())
          .isEqualTo(FlowStatus.BIZ_SUCCESS);
    }
  }
}
