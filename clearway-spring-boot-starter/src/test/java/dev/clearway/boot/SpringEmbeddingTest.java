package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.Schema;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** A Spring Boot application embeds the engine with its own DataSource and gateways. */
class SpringEmbeddingTest {

  /** What a payment team's application declares. */
  @Configuration(proxyBeanMethods = false)
  @Import(ClearwayEngineConfiguration.class)
  static class ShopApplication {
    // The pool belongs to the test JVM, not to this context: do not close it with the context.
    @Bean(destroyMethod = "")
    DataSource dataSource() {
      return TestDatabase.get().dataSource();
    }

    @Bean
    Clock clock() {
      return Clock.systemUTC();
    }

    @Bean
    SimWallet wallet(Clock clock) {
      return new SimWallet(FaultPlan.none(), clock);
    }

    @Bean
    SimBusiness business(Clock clock) {
      return new SimBusiness(FaultPlan.none(), clock);
    }
  }

  @BeforeEach
  void reset() {
    TestDatabase.get().reset();
  }

  private static ConfigurableApplicationContext start() {
    return new SpringApplicationBuilder(ShopApplication.class)
        .web(WebApplicationType.NONE)
        .properties("clearway.instance-id=shop", "clearway.timing=compressed", "clearway.workers=2")
        .run();
  }

  @Test
  void theInjectedPaymentServiceSettlesAPaymentSynchronously() throws Exception {
    try (ConfigurableApplicationContext context = start()) {
      PaymentService payments = context.getBean(PaymentService.class);
      GoalKey goal = GoalKey.ofDefaultMerchant(7, "renewal", "spring-1");

      PayFlow flow =
          payments
              .start(new NewPayment(goal, 990, "CNY", Instant.now().plus(Duration.ofMinutes(1))))
              .flow();

      assertThat(flow.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
      assertThat(context.getBean(SimWallet.class).ledger()).hasSize(1);
      assertThat(context.getBean(SimBusiness.class).grants())
          .singleElement()
          .satisfies(g -> assertThat(g.attributedOrderNo()).isEqualTo(flow.tradeOrderNo()));
      assertThat(count("SELECT count(*) FROM " + Schema.HISTORY_TABLE)).isPositive();
    }
  }

  @Test
  void theContextsScannerFinishesAFlowWhoseCreatorDied() throws Exception {
    try (ConfigurableApplicationContext context = start()) {
      FlowStore store = context.getBean(FlowStore.class);
      Instant now = Instant.now();
      // A creator that inserted the row and died: its lease is already expired.
      PayFlow orphan =
          store
              .createAttempt(
                  new NewPayment(
                      GoalKey.ofDefaultMerchant(8, "renewal", "spring-orphan"),
                      120,
                      "CNY",
                      now.plusSeconds(60)),
                  new Lease("dead-creator", now.minusSeconds(1)),
                  now)
              .flow();

      Instant giveUp = Instant.now().plusSeconds(10);
      while (!store.find(orphan.id()).orElseThrow().isTerminal()
          && Instant.now().isBefore(giveUp)) {
        Thread.sleep(50);
      }

      assertThat(store.find(orphan.id()).orElseThrow().status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    }
  }

  private static long count(String sql) throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
