package dev.clearway.service.refund;

import dev.clearway.boot.BrokerWakeups;
import dev.clearway.boot.ClearwayEngineConfiguration;
import dev.clearway.boot.ClearwayNode;
import dev.clearway.boot.ClearwayProperties;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.OverloadEvents;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.flow.port.WorkerFailures;
import dev.clearway.core.latecharge.domain.SweepSchedule;
import dev.clearway.core.latecharge.port.LateChargeEvents;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.runtime.Supervision;
import dev.clearway.service.latecharge.LateChargeEngine;
import dev.clearway.service.latecharge.LateChargeOpsController;
import dev.clearway.service.latecharge.MicrometerLateChargeEvents;
import dev.clearway.service.metrics.LateChargeGauges;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.latecharge.JdbcLateChargeOps;
import dev.clearway.store.latecharge.JdbcLateChargeStore;
import dev.clearway.store.latecharge.JdbcSweepStore;
import dev.clearway.store.refund.JdbcRefundStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * After-sales refunds in the service: the store, the refund engine (started with the context,
 * stopped with it) and the API. Timing follows the engine's ({@code clearway.timing}); {@code
 * clearway.refunds.workers}, {@code clearway.refunds.sync-threads} and {@code
 * clearway.refunds.sync-queue} size its pools, and new refunds are advanced synchronously for
 * {@code clearway.api.sync-budget} like payments (503 {@code overloaded} when no thread is free).
 * The late-charge checks and the sweep run beside it: a confirmed late charge becomes a LATE_CHARGE
 * refund order that this refund engine carries out. Refund orders and checks left for later are
 * woken in process, or through the broker when {@code clearway.broker.url} is set (kinds {@code
 * refund} and {@code latecharge}, see {@link RefundBrokerRoutes}); {@code
 * clearway.refunds.scan-interval} and {@code clearway.late-charges.scan-interval} override the
 * pause between their scanners' rounds.
 */
@Configuration(proxyBeanMethods = false)
@Import({RefundController.class, LateChargeOpsController.class, RefundBrokerRoutes.class})
public class RefundConfiguration {

  /** Takes the flow store so that Clearway's migrations (V5 included) have run first. */
  @Bean
  RefundStore clearwayRefundStore(DataSource dataSource, SqlDialect dialect, FlowStore flows) {
    return new JdbcRefundStore(dataSource, dialect);
  }

  @Bean
  RefundEvents clearwayRefundEvents(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry r = registry.getIfAvailable();
    return r == null ? RefundEvents.NONE : new MicrometerRefundEvents(r);
  }

  @Bean(destroyMethod = "close")
  RefundEngine clearwayRefundEngine(
      ClearwayNode node,
      RefundStore refunds,
      FlowStore flows,
      WalletGateway wallet,
      RefundEvents events,
      ClearwayProperties properties,
      ObjectProvider<Clock> clock,
      WorkerFailures failures,
      OverloadEvents overload,
      @Value("${clearway.refunds.workers:4}") int workers,
      @Value("${clearway.refunds.sync-threads:8}") int syncThreads,
      @Value("${clearway.refunds.sync-queue:16}") int syncQueue,
      @Value("${clearway.refunds.scan-interval:#{null}}") Duration scanInterval,
      ObjectProvider<BrokerWakeups> brokerWakeups) {
    EngineConfig config = engineConfig(properties, scanInterval);
    return new RefundEngine(
            refunds,
            flows,
            wallet,
            events,
            config,
            clock.getIfAvailable(Clock::systemUTC),
            node.ownerFor("refund"),
            new RefundEngine.Pools(
                workers, syncThreads, syncQueue, properties.queueLimits(workers)),
            new Supervision(failures, overload),
            inProcess ->
                ClearwayEngineConfiguration.brokerWakeupsOr(
                    brokerWakeups, BrokerWakeups.REFUND, inProcess))
        .start();
  }

  /**
   * The timing of {@code clearway.timing}, with the scanner's pause overridden when set: with a
   * broker the wake-ups carry the rows left for later, and the scanner, only the safety net, may
   * run less often.
   */
  private static EngineConfig engineConfig(ClearwayProperties properties, Duration scanInterval) {
    EngineConfig config =
        properties.compressed() ? EngineConfig.compressed() : EngineConfig.production();
    return scanInterval == null ? config : config.withScanInterval(scanInterval);
  }

  @Bean
  LateChargeStore clearwayLateChargeStore(
      DataSource dataSource, SqlDialect dialect, FlowStore flows) {
    return new JdbcLateChargeStore(dataSource, dialect);
  }

  /**
   * Late charges: checks raised by callbacks (see CallbackController) and by the sweep, which asks
   * the wallet about orders that ended unpaid in the last {@code clearway.late-charges.window}
   * (default 48h) at {@code clearway.late-charges.sweep-qps} (default 10) queries per second.
   */
  @Bean(destroyMethod = "close")
  LateChargeEngine clearwayLateChargeEngine(
      ClearwayNode node,
      DataSource dataSource,
      SqlDialect dialect,
      LateChargeStore checks,
      FlowStore flows,
      WalletGateway wallet,
      RefundEngine refunds,
      ClearwayProperties properties,
      ObjectProvider<Clock> clock,
      ObjectProvider<MeterRegistry> registry,
      @Value("${clearway.late-charges.window:48h}") Duration window,
      @Value("${clearway.late-charges.sweep-qps:10}") int sweepQps,
      @Value("${clearway.late-charges.workers:2}") int workers,
      @Value("${clearway.late-charges.scan-interval:#{null}}") Duration scanInterval,
      ObjectProvider<BrokerWakeups> brokerWakeups) {
    boolean compressed = properties.compressed();
    MeterRegistry meters = registry.getIfAvailable();
    return new LateChargeEngine(
            checks,
            new JdbcSweepStore(dataSource, dialect),
            flows,
            wallet,
            refunds.service(),
            meters == null ? LateChargeEvents.NONE : new MicrometerLateChargeEvents(meters),
            new LateChargeEngine.Timing(
                engineConfig(properties, scanInterval),
                compressed
                    ? SweepSchedule.compressed()
                    : SweepSchedule.production(window, sweepQps),
                clock.getIfAvailable(Clock::systemUTC)),
            node.ownerFor("late-charge"),
            workers,
            LateChargeEngine.FailureCounter.of(meters),
            inProcess ->
                ClearwayEngineConfiguration.brokerWakeupsOr(
                    brokerWakeups, BrokerWakeups.LATE_CHARGE, inProcess))
        .start();
  }

  @Bean
  JdbcLateChargeOps clearwayLateChargeOps(DataSource dataSource, FlowStore flows) {
    return new JdbcLateChargeOps(dataSource);
  }

  /** Open checks per state, the manual backlog and the sweep's lag, cached for scrapes. */
  @Bean(destroyMethod = "close")
  LateChargeGauges clearwayLateChargeGauges(
      JdbcLateChargeOps ops,
      LateChargeEngine engine,
      ObjectProvider<MeterRegistry> registry,
      ObjectProvider<Clock> clock) {
    MeterRegistry meters = registry.getIfAvailable(SimpleMeterRegistry::new);
    return new LateChargeGauges(
        ops, engine.sweep().schedule(), meters, clock.getIfAvailable(Clock::systemUTC), 5_000);
  }

  @Bean
  RefundApi refundApi(
      RefundEngine engine,
      RefundStore refunds,
      FlowStore flows,
      @Value("${clearway.api.sync-budget:1s}") Duration syncBudget,
      @Value("${clearway.api.overload-retry-after:2s}") Duration retryAfter) {
    return new RefundApi(
        engine.service(), refunds, flows, engine.syncAdvances(), syncBudget, retryAfter);
  }
}
