package dev.clearway.app.refund;

import dev.clearway.app.spring.ClearwayProperties;
import dev.clearway.core.engine.EngineConfig;
import dev.clearway.core.engine.Supervision;
import dev.clearway.core.port.FlowStore;
import dev.clearway.core.port.OverloadEvents;
import dev.clearway.core.port.WalletGateway;
import dev.clearway.core.port.WorkerFailures;
import dev.clearway.core.refund.LateChargeService;
import dev.clearway.core.refund.RefundEvents;
import dev.clearway.core.refund.RefundStore;
import dev.clearway.store.refund.JdbcRefundStore;
import io.micrometer.core.instrument.MeterRegistry;
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
 */
@Configuration(proxyBeanMethods = false)
@Import(RefundController.class)
public class RefundConfiguration {

  /** Takes the flow store so that Clearway's migrations (V5 included) have run first. */
  @Bean
  RefundStore clearwayRefundStore(DataSource dataSource, FlowStore flows) {
    return new JdbcRefundStore(dataSource);
  }

  @Bean
  RefundEvents clearwayRefundEvents(ObjectProvider<MeterRegistry> registry) {
    MeterRegistry r = registry.getIfAvailable();
    return r == null ? RefundEvents.NONE : new MicrometerRefundEvents(r);
  }

  @Bean(destroyMethod = "close")
  RefundEngine clearwayRefundEngine(
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
      @Value("${clearway.refunds.sync-queue:16}") int syncQueue) {
    EngineConfig config =
        properties.compressed() ? EngineConfig.compressed() : EngineConfig.production();
    return new RefundEngine(
            refunds,
            flows,
            wallet,
            events,
            config,
            clock.getIfAvailable(Clock::systemUTC),
            properties.instanceIdOrRandom() + "-refund",
            new RefundEngine.Pools(
                workers, syncThreads, syncQueue, properties.queueLimits(workers)),
            new Supervision(failures, overload))
        .start();
  }

  /** Refunds charges that land on orders already ended without payment (see CallbackController). */
  @Bean
  LateChargeService lateChargeService(FlowStore flows, WalletGateway wallet, RefundEngine engine) {
    return new LateChargeService(flows, wallet, engine.service());
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
