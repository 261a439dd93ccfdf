package dev.clearway.service.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.ClearwayEngineConfiguration;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.service.latecharge.LateChargeEngine;
import dev.clearway.service.refund.RefundConfiguration;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
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

/**
 * An application that embeds the engine with refunds runs the late-charge checks and the sweep with
 * its context: a charge no callback reports, on an order that ended unpaid, is found and refunded.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class SpringLateChargeEmbeddingTest {

  /** A payment team's application with refunds (and so late charges). */
  @Configuration(proxyBeanMethods = false)
  @Import({ClearwayEngineConfiguration.class, RefundConfiguration.class})
  static class ShopWithRefunds {
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

  @Test
  void theContextsSweepRefundsAChargeOnAClosedOrder() throws Exception {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(ShopWithRefunds.class)
            .web(WebApplicationType.NONE)
            .properties(
                "clearway.instance-id=shop", "clearway.timing=compressed", "clearway.workers=2")
            .run()) {
      assertThat(context.getBean(LateChargeEngine.class)).isNotNull();
      FlowStore flows = context.getBean(FlowStore.class);
      SimWallet wallet = context.getBean(SimWallet.class);
      Instant now = Instant.now();
      PayFlow created =
          flows
              .createAttempt(
                  new NewPayment(
                      GoalKey.ofDefaultMerchant(9, "renewal", "spring-late"),
                      300,
                      "CNY",
                      now.plusSeconds(60)),
                  new Lease("holder", now.plusSeconds(3_600)),
                  now)
              .flow();
      wallet.pay(new ChargeRequest(created.tradeOrderNo(), 9, 300, "CNY"));
      flows
          .transition(
              new TransitionWrite(
                  created,
                  FlowStatus.CLOSED,
                  "CANCELLED",
                  now,
                  null,
                  new HistoryNote(TriggerSource.API, null, "CANCEL", 0),
                  now,
                  created.leaseOwner()))
          .orElseThrow();

      LateChargeStore checks = context.getBean(LateChargeStore.class);
      Instant giveUp = Instant.now().plusSeconds(20);
      while (Instant.now().isBefore(giveUp)
          && checks
              .findByFlow(created.id())
              .map(c -> c.status() != LateChargeStatus.REFUND_REQUESTED)
              .orElse(true)) {
        Thread.sleep(50);
      }

      var check = checks.findByFlow(created.id()).orElseThrow();
      assertThat(check.status()).isEqualTo(LateChargeStatus.REFUND_REQUESTED);
      assertThat(check.source()).isEqualTo(SuspicionSource.SWEEP);
      assertThat(wallet.ledger())
          .filteredOn(e -> e.kind() == LedgerEntry.Kind.REFUND)
          .singleElement()
          .satisfies(e -> assertThat(e.tradeOrderNo()).isEqualTo(created.tradeOrderNo()));
    }
  }
}
