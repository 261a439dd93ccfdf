package dev.clearway.example.shop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.http.SimWalletServer;
import dev.clearway.store.testing.TestDatabase;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shop as it runs: the starter's engine on the embedded PostgreSQL, paying at the simulated
 * wallet over real HTTP. A payment made through the injected service reaches a terminal state, and
 * the shop's own business service holds the membership for exactly that order.
 */
@SpringBootTest(properties = {"clearway.timing=compressed", "clearway.workers=2"})
class ShopApplicationTest {
  private static final SimWallet WALLET = new SimWallet(FaultPlan.none(), Clock.systemUTC());
  private static final SimWalletServer WALLET_SERVER =
      SimWalletServer.start(WALLET, FaultPlan.none(), SimWalletServer.Options.defaults());

  @TestConfiguration
  static class EmbeddedPostgres {
    // The pool belongs to the test JVM: the context must not close it.
    @Bean(destroyMethod = "")
    DataSource dataSource() {
      return TestDatabase.get().dataSource();
    }
  }

  @DynamicPropertySource
  static void wallet(DynamicPropertyRegistry registry) {
    registry.add("shop.wallet-url", () -> WALLET_SERVER.baseUrl().toString());
  }

  @AfterAll
  static void stopWallet() {
    WALLET_SERVER.close();
  }

  @Autowired PaymentService payments;
  @Autowired FlowStore flows;
  @Autowired Memberships memberships;

  @Test
  void aPaymentReachesATerminalStateAndTheMembershipIsTheOrders() throws Exception {
    GoalKey goal = GoalKey.ofDefaultMerchant(42, "membership", "shop-" + System.nanoTime());

    PayFlow created =
        payments
            .start(new NewPayment(goal, 1_990, "EUR", Instant.now().plus(Duration.ofMinutes(1))))
            .flow();

    Instant giveUp = Instant.now().plusSeconds(30);
    PayFlow flow = flows.find(created.id()).orElseThrow();
    while (!flow.isTerminal() && Instant.now().isBefore(giveUp)) {
      Thread.sleep(50);
      flow = flows.find(created.id()).orElseThrow();
    }
    assertThat(flow.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    assertThat(memberships.holder(goal)).contains(flow.tradeOrderNo());
    assertThat(WALLET.ledger()).hasSize(1);
  }
}
