package dev.clearway.service.reconciliation;

import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.reconciliation.port.ReconRuns;
import dev.clearway.core.reconciliation.port.TicketCommands;
import dev.clearway.store.reconciliation.JdbcReconQueries;
import dev.clearway.store.reconciliation.JdbcTicketCommands;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Reconciliation in the service: the stores, the accounts' terms ({@code
 * clearway.reconciliation.accounts.<ref>.*}, see {@link AccountTermsProperties}), the runner that
 * imports, reconciles and repairs one account-day, the daily run of every configured account
 * ({@code clearway.reconciliation.check-interval}, default 5m, checks whether a day became
 * available; {@code clearway.reconciliation.repair-interval}, default 1m, runs the repair pass; 0
 * turns either off), the metrics, and the {@code /ops/reconciliation} API. A deployment without PSP
 * statements configures no account: nothing is downloaded, and the API and the repair pass serve
 * the files imported by hand.
 */
@Configuration(proxyBeanMethods = false)
@Import({
  ReconStatementsConfiguration.class,
  ReconEngineConfiguration.class,
  ReconciliationController.class,
  TicketController.class,
  RunController.class
})
public class ReconciliationConfiguration {

  /** Takes the flow store so that Clearway's migrations (V20, V21 included) have run first. */
  @Bean
  TicketCommands clearwayTicketCommands(DataSource dataSource, FlowStore migratedFirst) {
    return new JdbcTicketCommands(dataSource);
  }

  @Bean
  JdbcReconQueries clearwayReconQueries(DataSource dataSource, FlowStore migratedFirst) {
    return new JdbcReconQueries(dataSource);
  }

  @Bean
  ConfiguredAccountTerms clearwayAccountTerms(ConfigurableEnvironment environment) {
    return AccountTermsProperties.read(environment);
  }

  /** Gauges refreshed every {@code clearway.reconciliation.gauge-interval} (default 10s). */
  @Bean(destroyMethod = "close")
  ReconMetrics clearwayReconMetrics(
      JdbcReconQueries queries,
      ObjectProvider<MeterRegistry> registry,
      ObjectProvider<Clock> clock,
      Environment environment) {
    MeterRegistry meters = registry.getIfAvailable();
    if (meters == null) {
      return null;
    }
    return new ReconMetrics(
        queries,
        meters,
        clock.getIfAvailable(Clock::systemUTC),
        AccountTermsProperties.duration(environment, "gauge-interval", "10s"));
  }

  @Bean
  ReconRunner clearwayReconRunner(
      ReconSteps.Fetch fetch,
      ReconSteps.Reconcile reconcile,
      ReconSteps.Repair repair,
      ObjectProvider<ReconMetrics> metrics) {
    return new ReconRunner(fetch, reconcile, repair, metrics.getIfAvailable());
  }

  @Bean(destroyMethod = "close")
  DailyReconciliation clearwayDailyReconciliation(
      ConfiguredAccountTerms accounts,
      ReconRuns runs,
      ReconRunner runner,
      ReconSteps.Repair repair,
      ObjectProvider<Clock> clock,
      Environment environment) {
    Duration check = AccountTermsProperties.duration(environment, "check-interval", "5m");
    Duration repairEvery = AccountTermsProperties.duration(environment, "repair-interval", "1m");
    return new DailyReconciliation(
            accounts, runs, runner, repair, clock.getIfAvailable(Clock::systemUTC))
        .start(check, repairEvery);
  }
}
