package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.psp.stripe.StripeAdapter;
import dev.clearway.psp.stripe.StripeConfig;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** A Spring Boot application embeds the engine paying through its own PSP account adapters. */
class SpringChannelEmbeddingTest {

  static final StripeSimServer PSP =
      StripeSimServer.start(StripeSimOptions.defaults("sk_test_shop", "whsec_shop"));

  @Configuration(proxyBeanMethods = false)
  @Import({ClearwayEngineConfiguration.class, ClearwayChannelConfiguration.class})
  static class ShopApplication {
    @Bean(destroyMethod = "")
    DataSource dataSource() {
      return TestDatabase.get().dataSource();
    }

    @Bean
    SimBusiness business() {
      return new SimBusiness(FaultPlan.none(), Clock.systemUTC());
    }

    @Bean
    ChannelAccounts channelAccounts() {
      return new ChannelAccounts(
          List.of(
              new ChannelAccount(
                  31, "stripe", "acct_shop", "psp:stripe", Set.of("card"), 1, true)));
    }

    @Bean
    AdapterRegistry adapters() {
      StripeAdapter stripe =
          new StripeAdapter(StripeConfig.of(PSP.baseUrl(), "sk_test_shop", "whsec_shop"));
      return id -> {
        if (id != 31) {
          throw new IllegalArgumentException("unknown channel account");
        }
        return stripe;
      };
    }

    @Bean
    PaymentMethods paymentMethods() {
      return PaymentMethods.fixed("card", "pm_card_visa");
    }
  }

  @BeforeEach
  void reset() throws Exception {
    TestDatabase.get().reset();
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
              + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
              + " payment_order, channel_account CASCADE");
    }
  }

  @AfterAll
  static void stop() {
    PSP.close();
  }

  @Test
  void theEmbeddedEnginePaysThroughTheApplicationsPspAccount() {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(ShopApplication.class)
            .web(WebApplicationType.NONE)
            .properties("clearway.instance-id=shop", "clearway.timing=compressed")
            .run()) {
      PayFlow flow =
          context
              .getBean(PaymentService.class)
              .start(
                  new NewPayment(
                      GoalKey.ofDefaultMerchant(9, "ticket", "spring-ch-1"),
                      2_500,
                      "EUR",
                      Instant.now().plus(Duration.ofMinutes(1))))
              .flow();

      assertThat(context.getBean(FlowStore.class).find(flow.id()).orElseThrow().status())
          .isEqualTo(FlowStatus.BIZ_SUCCESS);
      assertThat(context.getBean(ChannelStores.class).attempts().attempts(flow.tradeOrderNo()))
          .singleElement()
          .satisfies(a -> assertThat(a.channelAccountId()).isEqualTo(31L));
      assertThat(PSP.ledger())
          .filteredOn(c -> c.merchantReference().equals(flow.tradeOrderNo()))
          .singleElement()
          .satisfies(c -> assertThat(c.charged()).isTrue())
          .extracting(PspCharge::amount)
          .isEqualTo(2_500L);
    }
  }
}
