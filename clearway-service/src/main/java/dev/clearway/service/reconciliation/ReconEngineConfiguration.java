package dev.clearway.service.reconciliation;

import dev.clearway.boot.ClearwayNode;
import dev.clearway.boot.ClearwayProperties;
import dev.clearway.boot.EngineAssembly;
import dev.clearway.boot.channel.ChannelLayer;
import dev.clearway.core.channel.engine.AttemptRecorder;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.BusinessGateway;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.reconciliation.decision.Tolerances;
import dev.clearway.core.reconciliation.engine.EngineRepairs;
import dev.clearway.core.reconciliation.engine.ReconConfig;
import dev.clearway.core.reconciliation.engine.ReconPorts;
import dev.clearway.core.reconciliation.engine.ReconciliationJob;
import dev.clearway.core.reconciliation.engine.RepairPass;
import dev.clearway.core.reconciliation.engine.RepairTargets;
import dev.clearway.core.reconciliation.port.ReconRuns;
import dev.clearway.core.reconciliation.port.ReconciliationEvents;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.service.refund.RefundEngine;
import dev.clearway.store.MysqlDialect;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.reconciliation.JdbcAgreeingLines;
import dev.clearway.store.reconciliation.JdbcReconciliationStores;
import dev.clearway.store.statement.StatementStores;
import java.time.Clock;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The reconciliation engine over the JDBC stores: the job that reconciles one account-day under its
 * run's lease, the repair pass, and the repairs through the engines' own transitions (the flow
 * engine's CAS transitions, the channel layer's recording path when it is there, the refund
 * engine). {@code clearway.reconciliation.date-window} (default 2h) is how far across midnight a
 * movement may sit in the neighbouring day's file; {@code
 * clearway.reconciliation.amount-tolerance-minor} and {@code fee-tolerance-minor} (default 0) how
 * far a suggested match may be off; {@code clearway.reconciliation.wallet-account} (default {@code
 * wallet}) names the account of flows paid through the plain wallet.
 */
@Configuration(proxyBeanMethods = false)
public class ReconEngineConfiguration {

  @Bean
  ReconConfig clearwayReconConfig(ClearwayNode node, Environment environment) {
    ReconConfig defaults = ReconConfig.defaults(node.ownerFor("reconciliation"));
    return new ReconConfig(
        defaults.owner(),
        defaults.lease(),
        AccountTermsProperties.duration(environment, "date-window", "2h"),
        new Tolerances(
            environment.getProperty(
                "clearway.reconciliation.amount-tolerance-minor", Long.class, 0L),
            environment.getProperty("clearway.reconciliation.fee-tolerance-minor", Long.class, 0L)),
        defaults.batch(),
        defaults.retryAfter());
  }

  /** Takes the flow store so that Clearway's migrations (V20 included) have run first. */
  @Bean
  JdbcReconciliationStores clearwayReconciliationStores(
      DataSource dataSource,
      SqlDialect dialect,
      FlowStore migratedFirst,
      @Value("${clearway.reconciliation.wallet-account:wallet}") String walletAccount) {
    return JdbcReconciliationStores.create(dataSource, dialect, walletAccount);
  }

  @Bean
  ReconRuns clearwayReconRuns(JdbcReconciliationStores stores) {
    return stores.runs();
  }

  @Bean
  ReconPorts clearwayReconPorts(
      DataSource dataSource,
      SqlDialect dialect,
      JdbcReconciliationStores stores,
      BusinessGateway business,
      ConfiguredAccountTerms terms,
      ObjectProvider<ReconMetrics> metrics,
      ObjectProvider<Clock> clock) {
    ReconciliationEvents events = metrics.getIfAvailable();
    return new ReconPorts(
        StatementStores.create(dataSource, dialect, clock.getIfAvailable(Clock::systemUTC)),
        stores.statements(),
        stores.locals(),
        stores.locals(),
        new GatewayBusinessFacts(business),
        terms,
        stores.runs(),
        stores.differences(),
        stores.settlements(),
        events == null ? ReconciliationEvents.NONE : events);
  }

  /**
   * The repairs write through the engines: flows by their CAS transitions (woken at once), charges
   * through the channel layer's recording path when the layer is there, refunds through the refund
   * engine's one entry.
   */
  @Bean
  EngineRepairs clearwayEngineRepairs(
      ClearwayNode node,
      FlowStore flows,
      RefundStore refunds,
      RefundEngine refundEngine,
      EngineAssembly engine,
      ObjectProvider<ChannelStores> channel,
      ObjectProvider<ChannelLayer> layer,
      ClearwayProperties properties,
      ObjectProvider<Clock> clock) {
    Clock c = clock.getIfAvailable(Clock::systemUTC);
    EngineConfig config =
        properties.compressed() ? EngineConfig.compressed() : EngineConfig.production();
    ChannelStores stores = channel.getIfAvailable();
    ChannelLayer channelLayer = layer.getIfAvailable();
    boolean channelled = stores != null && channelLayer != null;
    return new EngineRepairs(
        new RepairTargets(
            flows,
            channelled ? stores.attempts() : null,
            channelled ? new AttemptRecorder(channelLayer.context()) : null,
            refunds,
            request -> refundEngine.service().request(request),
            (flowId, at) -> engine.runtime().wake(flowId, TriggerSource.RECONCILIATION),
            new LeaseTokens(node.ownerFor("reconciliation-repair"), c, config)));
  }

  /**
   * The set-based path: the lines that agree with their payment are settled in SQL, the others go
   * through the matcher.
   */
  @Bean
  ReconciliationJob clearwayReconciliationJob(
      ReconPorts ports,
      ReconConfig config,
      DataSource dataSource,
      SqlDialect dialect,
      @Value("${clearway.reconciliation.wallet-account:wallet}") String walletAccount,
      ObjectProvider<Clock> clock) {
    return new ReconciliationJob(
        ports,
        config,
        clock.getIfAvailable(Clock::systemUTC),
        // The MySQL family has no set-based agreeing lines: the matcher sees every line.
        dialect instanceof MysqlDialect
            ? null
            : new JdbcAgreeingLines(dataSource, dialect, walletAccount));
  }

  @Bean
  RepairPass clearwayRepairPass(
      ReconPorts ports, EngineRepairs repairs, ReconConfig config, ObjectProvider<Clock> clock) {
    return new RepairPass(ports, repairs, config, clock.getIfAvailable(Clock::systemUTC));
  }

  /** The job as the runner calls it: the run as recorded, empty when another node holds it. */
  @Bean
  ReconSteps.Reconcile clearwayReconcile(ReconciliationJob job, ReconRuns runs) {
    return (account, day) -> {
      ReconciliationJob.Result result = job.run(account, day);
      return result.runId() == null ? Optional.empty() : runs.find(result.runId());
    };
  }

  /** Rounds of the repair pass until nothing is due (at most 50 pages per call). */
  @Bean
  ReconSteps.Repair clearwayRepair(RepairPass pass) {
    return () -> {
      RepairPass.Round round = pass.runUntilIdle(50);
      return round.resolved() + round.autoRepaired() + round.tickets();
    };
  }
}
