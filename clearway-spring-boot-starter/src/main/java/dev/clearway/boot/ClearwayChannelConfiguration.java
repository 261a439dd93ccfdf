package dev.clearway.boot;

import dev.clearway.boot.channel.ChannelLayer;
import dev.clearway.boot.channel.ChosenMethods;
import dev.clearway.boot.channel.MerchantChannelSettings;
import dev.clearway.boot.metrics.MicrometerChannelEvents;
import dev.clearway.core.channel.domain.MerchantChannel;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RegistryRecoveryPolicies;
import dev.clearway.core.channel.engine.StatementRecovery;
import dev.clearway.core.channel.policy.PolicyRegistry;
import dev.clearway.core.channel.policy.PolicyRejected;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.PaymentDetailsStore;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WorkerFailures;
import dev.clearway.core.reconciliation.port.AccountTermsSource;
import dev.clearway.psp.health.CircuitBreakerHealth;
import dev.clearway.psp.policy.ChannelCapabilities;
import dev.clearway.psp.policy.DefaultRecoveryPolicy;
import dev.clearway.psp.policy.YamlPolicyParser;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.channel.JdbcPaymentDetails;
import dev.clearway.store.channel.JdbcRecoveryPolicyStore;
import dev.clearway.store.reconciliation.JdbcStatementFacts;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Embeds the channel layer next to {@link ClearwayEngineConfiguration}: the engine then pays
 * through attempts across PSP accounts instead of a single wallet. The application declares a
 * {@link DataSource}, a {@code BusinessGateway}, a {@link ChannelAccounts} bean, an {@link
 * AdapterRegistry} (its adapters with its credentials, e.g. {@code StripeAdapter}, {@code
 * WechatPayAdapter}) and optionally {@link PaymentMethods} (the method of a payment whose request
 * chose none; a request's chosen method and each merchant's channel configuration are read from
 * {@code payment_method_choice} and {@code merchant_channel}, see {@link ChosenMethods}); it must
 * not declare its own {@code WalletGateway}. Recovery policies start from the default file; later
 * versions go through the {@link PolicyRegistry} bean. Webhooks: hand them to the {@link
 * ChannelWebhookIntake} bean (the Clearway server maps {@code POST /v1/channels/{id}/webhooks} to
 * it). Each account's calls are paced in-process unless a {@link CallBudget} bean is declared (a
 * budget shared by all nodes: {@code clearway.redis.url}). With a broker ({@code
 * clearway.broker.url}) the recovery tasks left for later are woken through it (kind {@code
 * recovery}); {@code clearway.channel.recovery-idle-pause} (default 50ms) is the pause of the
 * recovery worker's claim rounds after one that found nothing due.
 */
@Configuration(proxyBeanMethods = false)
public class ClearwayChannelConfiguration {

  /**
   * The channel store, with the declared accounts and then each merchant's channel configuration
   * ({@link MerchantChannelSettings}, all checked before any is written) upserted at start.
   */
  @Bean
  ChannelStores clearwayChannelStore(
      DataSource dataSource,
      SqlDialect dialect,
      FlowStore migratedFirst,
      ChannelAccounts accounts,
      Environment env) {
    List<MerchantChannel> merchantChannels = MerchantChannelSettings.read(env, accounts.accounts());
    ChannelStores store = JdbcChannelStores.create(dataSource, dialect);
    accounts.accounts().forEach(store.accounts()::upsertAccount);
    merchantChannels.forEach(new JdbcPaymentDetails(dataSource, dialect)::upsertMerchantChannel);
    return store;
  }

  @Bean
  PolicyRegistry clearwayPolicyRegistry(DataSource dataSource, ObjectProvider<Clock> clock) {
    PolicyRegistry registry =
        new PolicyRegistry(
            new JdbcRecoveryPolicyStore(dataSource),
            new YamlPolicyParser(),
            ChannelCapabilities.all(),
            clock.getIfAvailable(Clock::systemUTC));
    try {
      registry.activateInitial(DefaultRecoveryPolicy.text(), PolicyRegistry.SYSTEM);
    } catch (PolicyRejected e) {
      throw new IllegalStateException("default recovery policy refused: " + e.code(), e);
    }
    return registry;
  }

  /**
   * The circuit breakers of the accounts; with a meter registry each account's state is the gauge
   * {@code clearway.channel.circuit.open{account}} (1 while open), which the console reads, and its
   * PSP answers are registered at zero ({@code clearway.channel.psp.answers{account}}).
   */
  @Bean
  @ConditionalOnMissingBean
  CircuitBreakerHealth clearwayChannelHealth(
      ChannelAccounts accounts, ObjectProvider<MeterRegistry> meters) {
    CircuitBreakerHealth health = CircuitBreakerHealth.defaults();
    MeterRegistry registry = meters.getIfAvailable();
    if (registry != null) {
      for (var account : accounts.accounts()) {
        Gauge.builder(
                "clearway.channel.circuit.open",
                health,
                h -> "OPEN".equals(h.state(account.id())) ? 1.0 : 0.0)
            .tag("account", Long.toString(account.id()))
            .register(registry);
        MicrometerChannelEvents.registerAccount(registry, account.id());
      }
    }
    return health;
  }

  @Bean(destroyMethod = "close")
  ChannelLayer clearwayChannelLayer(
      ChannelStores store,
      AdapterRegistry adapters,
      PolicyRegistry policies,
      CircuitBreakerHealth health,
      ObjectProvider<PaymentMethods> methods,
      ObjectProvider<MeterRegistry> meters,
      ObjectProvider<Clock> clock,
      ObjectProvider<EngineAssembly> engine,
      ObjectProvider<WorkerFailures> failures,
      ObjectProvider<CallBudget> budget,
      ObjectProvider<BrokerWakeups> brokerWakeups,
      ObjectProvider<AccountTermsSource> reconciliationTerms,
      DataSource dataSource,
      SqlDialect dialect,
      FlowStore flows,
      @Value("${clearway.channel.recovery-idle-pause:50ms}") Duration recoveryIdlePause) {
    Clock c = clock.getIfAvailable(Clock::systemUTC);
    MeterRegistry registry = meters.getIfAvailable();
    ChannelEvents events =
        registry == null
            ? ChannelEvents.NONE
            : new MicrometerChannelEvents(registry, store.tasks(), c);
    ChannelContext ctx =
        new ChannelContext(
            store,
            adapters,
            health,
            new RegistryRecoveryPolicies(policies),
            budget.getIfAvailable(PacedRateLimiter::new),
            events,
            c,
            // The engine is created after this layer (it pays through it): look it up lazily.
            trade ->
                OrderNumbers.flowIdOf(trade)
                    .ifPresent(
                        id -> {
                          EngineAssembly e = engine.getIfAvailable();
                          if (e != null) {
                            e.runtime().wake(id, TriggerSource.WAKEUP);
                          }
                        }),
            Duration.ofSeconds(10),
            // With a broker, tasks left for later are also woken through it (kind recovery).
            ClearwayEngineConfiguration.brokerWakeupsOr(
                brokerWakeups, BrokerWakeups.RECOVERY, WakeupScheduler.NONE));
    PaymentDetailsStore details = new JdbcPaymentDetails(dataSource, dialect);
    return new ChannelLayer(
            ctx,
            new ChosenMethods(
                flows, details, methods.getIfAvailable(() -> PaymentMethods.fixed("card", "card"))),
            details,
            "spring",
            8,
            failures.getIfAvailable(WorkerFailures::systemLogger),
            recoveryIdlePause,
            statementRecovery(dataSource, reconciliationTerms.getIfAvailable()))
        .start();
  }

  /**
   * The imported statements for the RECONCILIATION strategy, when the application has the accounts'
   * reconciliation terms (the Clearway server does); without them that strategy waits.
   */
  private static StatementRecovery statementRecovery(
      DataSource dataSource, AccountTermsSource terms) {
    return terms == null ? null : new StatementRecovery(new JdbcStatementFacts(dataSource), terms);
  }

  @Bean
  ChannelGateway clearwayWalletGateway(ChannelLayer layer) {
    return layer.gateway();
  }

  @Bean
  ChannelWebhookIntake clearwayChannelWebhookIntake(ChannelLayer layer) {
    return layer.intake();
  }
}
