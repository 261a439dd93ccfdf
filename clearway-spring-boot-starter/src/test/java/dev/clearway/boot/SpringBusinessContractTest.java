package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.business.http.HttpBusinessGateway;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.business.SimBusinessServer;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * With {@code clearway.business.url} and {@code secret} and no {@link BusinessGateway} of its own,
 * the application grants goals through the business contract over HTTP.
 */
class SpringBusinessContractTest {
  private static final String SECRET = "bizsec_test_spring_business_42ab";

  @Configuration(proxyBeanMethods = false)
  @Import(ClearwayEngineConfiguration.class)
  static class ShopWithoutBusinessBean {
    @Bean(destroyMethod = "")
    DataSource dataSource() {
      return TestDatabase.get().dataSource();
    }

    @Bean
    SimWallet wallet() {
      return new SimWallet(FaultPlan.none(), Clock.systemUTC());
    }
  }

  @Test
  void theBusinessUrlMakesAnHttpBusinessGateway() {
    TestDatabase.get().reset();
    SimBusiness business = new SimBusiness(FaultPlan.none(), Clock.systemUTC());
    try (SimBusinessServer server =
            SimBusinessServer.start(
                business, FaultPlan.none(), SimBusinessServer.Options.signedWith(SECRET));
        ConfigurableApplicationContext context =
            new SpringApplicationBuilder(ShopWithoutBusinessBean.class)
                .web(WebApplicationType.NONE)
                .properties(
                    "clearway.timing=compressed",
                    "clearway.workers=2",
                    "clearway.business.url=" + server.baseUrl(),
                    "clearway.business.secret=" + SECRET,
                    "clearway.business.request-timeout=3s")
                .run()) {
      assertThat(context.getBean(BusinessGateway.class)).isInstanceOf(HttpBusinessGateway.class);
      PayFlow flow =
          context
              .getBean(PaymentService.class)
              .start(
                  new NewPayment(
                      GoalKey.ofDefaultMerchant(7, "renewal", "contract-1"),
                      990,
                      "CNY",
                      Instant.now().plus(Duration.ofMinutes(1))))
              .flow();
      assertThat(flow.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
      assertThat(business.grants())
          .singleElement()
          .satisfies(g -> assertThat(g.attributedOrderNo()).isEqualTo(flow.tradeOrderNo()));
    }
  }
}
