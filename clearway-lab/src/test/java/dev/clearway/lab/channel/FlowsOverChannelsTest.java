package dev.clearway.lab.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.boot.channel.ChannelLayer;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.StaticRecoveryPolicies;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.psp.health.CircuitBreakerHealth;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The flow engine paying through the channel layer: the advancer's wallet is the {@link
 * dev.clearway.core.channel.engine.ChannelGateway}, PSPs are simulated Stripe-style accounts over
 * HTTP, and finished attempts wake their flows.
 */
class FlowsOverChannelsTest {

  private final JdbcFlowStore flows = TestDatabase.get().store();
  private final ChannelStores channels = JdbcChannelStores.create(TestDatabase.get().dataSource());

  @BeforeEach
  void clean() throws Exception {
    TestDatabase.get().reset();
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(
          "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
              + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
              + " payment_order, channel_account CASCADE");
    }
  }

  private record Run(List<PayFlow> flows, List<PspCharge> ledger, Map<String, Long> origins) {}

  private Run run(PspFaults a, PspFaults b, double businessFaultRate, int payments)
      throws Exception {
    Clock clock = Clock.systemUTC();
    try (SimChannels sims =
        new SimChannels(
            channels,
            List.of(
                new SimChannels.AccountSpec(21, "psp:a", 1, a),
                new SimChannels.AccountSpec(22, "psp:b", 2, b)),
            Duration.ofMillis(50),
            Duration.ofSeconds(2))) {
      AtomicReference<EngineAssembly> engine = new AtomicReference<>();
      ChannelContext ctx =
          new ChannelContext(
              channels,
              sims::adapter,
              new CircuitBreakerHealth(10, 50f, Duration.ofSeconds(1)),
              new StaticRecoveryPolicies(
                  new RecoveryPolicy(
                      "flows",
                      List.of(
                          new PolicyRule(
                              new RuleMatch("stripe", "card", Operation.CREATE),
                              List.of(
                                  RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
                              List.of(Duration.ofMillis(100), Duration.ofMillis(300)),
                              Duration.ofMinutes(5),
                              200,
                              8)))),
              new PacedRateLimiter(),
              ChannelEvents.NONE,
              clock,
              trade ->
                  OrderNumbers.flowIdOf(trade)
                      .ifPresent(
                          id -> {
                            EngineAssembly e = engine.get();
                            if (e != null) {
                              e.runtime().wake(id, TriggerSource.WAKEUP);
                            }
                          }),
              Duration.ofSeconds(3));
      try (ChannelLayer layer =
              new ChannelLayer(ctx, PaymentMethods.fixed("card", "pm_card_visa"), "it", 8).start();
          EngineAssembly assembly =
              new EngineAssembly(
                      flows,
                      layer.gateway(),
                      new SimBusiness(new FaultPlan(5, businessFaultRate), clock),
                      EngineEvents.NONE,
                      EngineConfig.compressed(),
                      clock,
                      "it",
                      8,
                      UnaryOperator.identity())
                  .start()) {
        engine.set(assembly);
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < payments; i++) {
          NewPayment p =
              new NewPayment(
                  GoalKey.ofDefaultMerchant(16, "renew", "g" + i),
                  1_000,
                  "EUR",
                  clock.instant().plusSeconds(4));
          try {
            assembly.payments().start(p);
          } catch (dev.clearway.sim.SimulatedCrash crash) {
            // The worker "died" after the grant: the scanner finds the flow again.
          }
        }
        try (Connection c = TestDatabase.get().dataSource().getConnection();
            Statement st = c.createStatement();
            var rs = st.executeQuery("SELECT id FROM pay_flow ORDER BY id")) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
          }
        }
        assertThat(ids).hasSize(payments);
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        List<PayFlow> now = List.of();
        while (System.nanoTime() < deadline) {
          now = ids.stream().map(id -> flows.find(id).orElseThrow()).toList();
          if (now.stream().allMatch(f -> f.status().isTerminal())) {
            break;
          }
          Thread.sleep(100);
        }
        List<PspCharge> ledger = new ArrayList<>();
        sims.sims().values().forEach(s -> ledger.addAll(s.ledger()));
        Map<String, Long> origins = new HashMap<>();
        for (PayFlow f : now) {
          channels
              .attempts()
              .attempts(f.tradeOrderNo())
              .forEach(at -> origins.merge(at.origin().name(), 1L, Long::sum));
        }
        return new Run(now, ledger, origins);
      }
    }
  }

  @Test
  void lostResponsesAreRecoveredOnTheSameAttemptAndEveryFlowConverges() throws Exception {
    Run r = run(new PspFaults(1).lostResponseRate(0.3), PspFaults.none(), 0, 30);

    assertThat(r.flows()).allMatch(f -> f.status() == FlowStatus.BIZ_SUCCESS);
    assertThat(r.origins()).doesNotContainKey("FAILOVER"); // UNKNOWN never fails over
    Map<String, Long> kept = keptCharges(r.ledger());
    for (PayFlow f : r.flows()) {
      assertThat(kept.get(f.tradeOrderNo())).as(f.tradeOrderNo()).isEqualTo(1L);
    }
  }

  @Test
  void anOutageFailsOverAndRefundsGoBackOnTheChargedChannel() throws Exception {
    Run r = run(new PspFaults(2).outage(PspFaults.Outage.UNAVAILABLE), PspFaults.none(), 0.3, 30);

    assertThat(r.flows()).allMatch(f -> f.status().isTerminal());
    assertThat(r.origins()).containsKey("FAILOVER");
    Map<String, Long> kept = keptCharges(r.ledger());
    for (PayFlow f : r.flows()) {
      long expected = f.status() == FlowStatus.BIZ_SUCCESS ? 1 : 0;
      assertThat(kept.getOrDefault(f.tradeOrderNo(), 0L)).as(f + "").isEqualTo(expected);
    }
    assertThat(r.flows()).anyMatch(f -> f.status() == FlowStatus.REFUNDED);
    // Nothing was ever charged on the account in outage.
    assertThat(r.ledger())
        .filteredOn(c -> c.account().endsWith("_21"))
        .noneMatch(PspCharge::charged);
  }

  private static Map<String, Long> keptCharges(List<PspCharge> ledger) {
    Map<String, Long> kept = new HashMap<>();
    for (PspCharge c : ledger) {
      if (c.charged() && c.refunded() < c.amount()) {
        kept.merge(c.merchantReference(), 1L, Long::sum);
      }
    }
    return kept;
  }
}
