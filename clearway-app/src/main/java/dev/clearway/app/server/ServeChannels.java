package dev.clearway.app.server;

import dev.clearway.app.EngineAssembly;
import dev.clearway.app.channel.ChannelLayer;
import dev.clearway.app.channel.SimChannels;
import dev.clearway.app.metrics.MicrometerWorkerFailures;
import dev.clearway.psp.health.CircuitBreakerHealth;
import dev.clearway.psp.policy.ChannelCapabilities;
import dev.clearway.psp.policy.DefaultRecoveryPolicy;
import dev.clearway.psp.policy.YamlPolicyParser;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RegistryRecoveryPolicies;
import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.domain.OrderNumbers;
import dev.clearway.core.domain.TriggerSource;
import dev.clearway.core.port.WalletGateway;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.store.Database;
import dev.clearway.store.channel.JdbcChannelStore;
import dev.clearway.store.channel.JdbcRecoveryPolicyStore;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code serve --channels}: the flow engine pays through the channel layer instead of the single
 * simulated wallet. Two simulated Stripe-style accounts in two failure domains, webhooks to {@code
 * /v1/channels/{id}/webhooks}, recovery policies from the versioned registry (the default file
 * activated on first start), finished attempts waking their flows.
 */
final class ServeChannels implements AutoCloseable {

  private final SimChannels sims;
  private final ChannelLayer layer;
  private final AtomicReference<EngineAssembly> engine = new AtomicReference<>();
  private final PolicyRegistry registry;
  private final JdbcChannelStore store;
  private final CircuitBreakerHealth health = CircuitBreakerHealth.defaults();
  private final dev.clearway.app.metrics.LateBoundChannelEvents events =
      new dev.clearway.app.metrics.LateBoundChannelEvents();
  // The layer starts before the Spring context: its failures count here until bind().
  private final CompositeMeterRegistry failureMeters = new CompositeMeterRegistry();

  ServeChannels(Database db, int port, Clock clock) {
    this.store = new JdbcChannelStore(db.dataSource());
    this.sims =
        new SimChannels(
            store,
            List.of(
                new SimChannels.AccountSpec(1, "psp:stripe-a", 1, new PspFaults(1)),
                new SimChannels.AccountSpec(2, "psp:stripe-b", 2, new PspFaults(2))),
            Duration.ofMillis(1_500),
            Duration.ofSeconds(3));
    sims.sims()
        .forEach(
            (id, sim) ->
                sim.webhookTarget(
                    URI.create("http://127.0.0.1:" + port + "/v1/channels/" + id + "/webhooks")));
    this.registry =
        new PolicyRegistry(
            new JdbcRecoveryPolicyStore(db.dataSource()),
            new YamlPolicyParser(),
            ChannelCapabilities.all(),
            clock);
    try {
      registry.activateInitial(DefaultRecoveryPolicy.text(), PolicyRegistry.SYSTEM);
    } catch (PolicyRejected e) {
      throw new IllegalStateException("the default recovery policy is invalid: " + e.code(), e);
    }
    ChannelContext ctx =
        new ChannelContext(
            store,
            sims::adapter,
            health,
            new RegistryRecoveryPolicies(registry),
            new PacedRateLimiter(),
            events,
            clock,
            this::wakeFlow,
            Duration.ofSeconds(5));
    this.layer =
        new ChannelLayer(
                ctx,
                PaymentMethods.fixed("card", "pm_card_visa"),
                "serve",
                8,
                new MicrometerWorkerFailures(failureMeters))
            .start();
  }

  private void wakeFlow(String tradeOrderNo) {
    EngineAssembly e = engine.get();
    if (e != null) {
      OrderNumbers.flowIdOf(tradeOrderNo)
          .ifPresent(id -> e.runtime().wake(id, TriggerSource.WAKEUP));
    }
  }

  WalletGateway gateway() {
    return layer.gateway();
  }

  ChannelLayer layer() {
    return layer;
  }

  PolicyRegistry registry() {
    return registry;
  }

  /** Once the Spring context runs: wake its engine, count into its meter registry. */
  void bind(EngineAssembly assembly, io.micrometer.core.instrument.MeterRegistry meters) {
    engine.set(assembly);
    failureMeters.add(meters);
    events.bind(new dev.clearway.app.metrics.MicrometerChannelEvents(meters, store, clock()));
    for (var account : sims.accounts()) {
      io.micrometer.core.instrument.Gauge.builder(
              "clearway.channel.circuit.open",
              health,
              h -> "OPEN".equals(h.state(account.id())) ? 1.0 : 0.0)
          .tag("account", Long.toString(account.id()))
          .register(meters);
    }
  }

  private static java.time.Clock clock() {
    return java.time.Clock.systemUTC();
  }

  @Override
  public void close() {
    layer.close();
    sims.close();
  }
}
