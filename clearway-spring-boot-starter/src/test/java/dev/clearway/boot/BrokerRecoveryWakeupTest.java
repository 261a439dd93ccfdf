package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ConnectionFactory;
import dev.clearway.amqp.DelayTiers;
import dev.clearway.amqp.Topology;
import dev.clearway.core.channel.decision.CreateRequestHash;
import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.psp.stripe.StripeAdapter;
import dev.clearway.psp.stripe.StripeConfig;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.store.testing.TestDatabase;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * With {@code clearway.broker.url} set, a recovery task's wake-up (kind {@code recovery}) reaches
 * the channel layer's recovery worker through the real RabbitMQ: the task of an attempt whose
 * creator died is claimed and run although the worker's claim rounds pause ten minutes, and a
 * duplicated wake-up claims nothing.
 */
@Tag("rabbitmq")
class BrokerRecoveryWakeupTest {
  static final String URL =
      System.getProperty("clearway.test.rabbitmq", "amqp://guest:guest@127.0.0.1:5672");
  static final String POLICY_VERSION = "default-2026-01-01";
  static final StripeSimServer PSP =
      StripeSimServer.start(StripeSimOptions.defaults("sk_test_wake", "whsec_wake"));

  @Configuration(proxyBeanMethods = false)
  @Import({
    ClearwayBrokerAutoConfiguration.class,
    ClearwayEngineConfiguration.class,
    ClearwayChannelConfiguration.class
  })
  static class ShopApplication {
    @Bean(destroyMethod = "")
    DataSource dataSource() {
      return TestDatabase.get().dataSource();
    }

    @Bean
    MeterRegistry meters() {
      return new SimpleMeterRegistry();
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
                  41, "stripe", "acct_wake", "psp:stripe", Set.of("card"), 1, true)));
    }

    @Bean
    AdapterRegistry adapters() {
      StripeAdapter stripe =
          new StripeAdapter(StripeConfig.of(PSP.baseUrl(), "sk_test_wake", "whsec_wake"));
      return id -> {
        if (id != 41) {
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
    purgeWakeups();
    TestDatabase.get().reset();
    execute(
        "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
            + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
            + " payment_order, channel_account CASCADE");
  }

  @AfterAll
  static void stop() {
    PSP.close();
  }

  @Test
  void aRecoveryTaskIsRunByItsBrokerWakeupWhileTheClaimRoundsPause() throws Exception {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(ShopApplication.class)
            .web(WebApplicationType.NONE)
            .properties(
                "clearway.instance-id=wake",
                "clearway.timing=compressed",
                "clearway.broker.url=" + URL,
                "clearway.channel.recovery-idle-pause=10m")
            .run()) {
      ChannelStores stores = context.getBean(ChannelStores.class);
      Instant now = Instant.now();
      // A create whose caller died between inserting the attempt and calling the PSP.
      Attempt orphan = orphanAttempt(stores, "cw_wake_recovery_1", now.plusSeconds(1));
      MeterRegistry meters = context.getBean(MeterRegistry.class);
      long before = meters.timer("clearway.broker.wakeup.lag").count();

      BrokerWakeups wakeups = context.getBean(BrokerWakeups.class);
      wakeups.of(BrokerWakeups.RECOVERY).schedule(orphan.id(), now.plusSeconds(1));
      wakeups.of(BrokerWakeups.RECOVERY).schedule(orphan.id(), now.plusSeconds(1));

      Instant giveUp = Instant.now().plusSeconds(20);
      while (Instant.now().isBefore(giveUp)
          && (meters.timer("clearway.broker.wakeup.lag").count() < before + 2
              || stores.attempts().attempt(orphan.id()).orElseThrow().status()
                  != AttemptStatus.SUCCEEDED)) {
        Thread.sleep(50);
      }
      assertThat(meters.timer("clearway.broker.wakeup.lag").count())
          .as("both wake-ups delivered")
          .isGreaterThanOrEqualTo(before + 2);
      assertThat(stores.attempts().attempt(orphan.id()).orElseThrow().status())
          .as("%s", text("SELECT status || ' ' || attempt_count FROM recovery_task"))
          .isEqualTo(AttemptStatus.SUCCEEDED);
      assertThat(text("SELECT status FROM recovery_task WHERE attempt_id = " + orphan.id()))
          .isEqualTo("RESOLVED");
      assertThat(text("SELECT attempt_count FROM recovery_task WHERE attempt_id = " + orphan.id()))
          .as("claimed once: the duplicate found it settled")
          .isEqualTo("1");
      assertThat(PSP.ledger())
          .filteredOn(c -> c.merchantReference().equals("cw_wake_recovery_1"))
          .singleElement()
          .satisfies(c -> assertThat(c.charged()).isTrue());
    }
  }

  /** An attempt and its task, held by a creator that never called the PSP, until {@code until}. */
  private static Attempt orphanAttempt(ChannelStores stores, String trade, Instant until) {
    Instant now = Instant.now();
    stores.orders().openOrder(new PaymentOrder(trade, 2_500, "EUR", "card", false), now);
    Attempt.Money money = new Attempt.Money(2_500, "EUR", "pm_card_visa");
    return stores
        .attempts()
        .insertAttempt(
            new NewAttempt(
                trade,
                41,
                AttemptOrigin.INITIAL,
                null,
                "",
                money,
                id -> {
                  String key = ChannelGateway.keyFor(id);
                  CreatePayment request =
                      new CreatePayment(key, trade, 2_500, "EUR", "pm_card_visa", "order " + trade);
                  return new String[] {key, CreateRequestHash.of(41, request)};
                }),
            new NewTask("IDEMPOTENT_REPLAY", until, POLICY_VERSION, "dead-creator"),
            now)
        .orElseThrow();
  }

  /** Wake-ups other tests left in the broker would only be counted here too. */
  private static void purgeWakeups() throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setUri(URL);
    try (com.rabbitmq.client.Connection c = factory.newConnection();
        Channel ch = c.createChannel()) {
      new Topology(DelayTiers.standard()).declare(ch);
      ch.queuePurge(Topology.WORK_QUEUE);
      for (Duration tier : DelayTiers.standard().all()) {
        ch.queuePurge(Topology.delayQueue(tier));
      }
    }
  }

  private static void execute(String sql) throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static String text(String sql) throws Exception {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
