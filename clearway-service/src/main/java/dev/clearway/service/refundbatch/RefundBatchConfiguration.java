package dev.clearway.service.refundbatch;

import dev.clearway.boot.ClearwayNode;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.refundbatch.engine.BatchRunSettings;
import dev.clearway.core.refundbatch.engine.BatchRunner;
import dev.clearway.core.refundbatch.port.BatchEvents;
import dev.clearway.core.refundbatch.port.BatchRefundEntry;
import dev.clearway.core.refundbatch.port.RefundBatchCommands;
import dev.clearway.core.runtime.TokenMint;
import dev.clearway.service.metrics.RefundBatchGauges;
import dev.clearway.service.refund.RefundEngine;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.refundbatch.JdbcBatchRunStore;
import dev.clearway.store.refundbatch.JdbcRefundBatchCommands;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Batch refunds in the service: the maker/checker store, the ops API and one runner thread per node
 * (off with {@code clearway.refund-batches.runner=false}). The runner creates each refund order
 * through the refund engine's own entry and lets the refund engine carry it out; it takes a slot of
 * the payment's account in the {@link CallBudget} bean (shared by all nodes over Redis when
 * configured, else one in-process budget) at {@code clearway.refund-batches.qps} per account
 * (default 10). {@code clearway.refund-batches.lease} (30 s), {@code .poll-interval} (2 s), {@code
 * .page-size} (200) and {@code .settle-interval} (5 s) tune it.
 */
@Configuration(proxyBeanMethods = false)
@Import(RefundBatchController.class)
public class RefundBatchConfiguration {

  /** Takes the flow and refund stores so that Clearway's migrations (V26 included) have run. */
  @Bean
  RefundBatchCommands clearwayRefundBatches(
      DataSource dataSource, SqlDialect dialect, FlowStore flows, RefundStore refunds) {
    return new JdbcRefundBatchCommands(dataSource, dialect);
  }

  /**
   * The batches per state and the items of open batches per outcome, registered at zero when the
   * service starts and read from the database every {@code clearway.metrics.refresh} (5 s).
   */
  @Bean(destroyMethod = "close")
  RefundBatchGauges clearwayRefundBatchGauges(
      DataSource dataSource,
      RefundBatchCommands migratedFirst,
      MeterRegistry registry,
      @Value("${clearway.metrics.refresh:5s}") Duration refresh) {
    return new RefundBatchGauges(dataSource, registry, refresh.toMillis());
  }

  @Bean
  @ConditionalOnProperty(
      name = "clearway.refund-batches.runner",
      havingValue = "true",
      matchIfMissing = true)
  BatchRunnerLoop clearwayRefundBatchRunner(
      DataSource dataSource,
      SqlDialect dialect,
      RefundBatchCommands batches,
      RefundEngine refunds,
      ClearwayNode node,
      ObjectProvider<CallBudget> budget,
      ObjectProvider<Clock> clock,
      @Value("${clearway.refund-batches.qps:10}") int qps,
      @Value("${clearway.refund-batches.lease:30s}") Duration lease,
      @Value("${clearway.refund-batches.poll-interval:2s}") Duration pollInterval,
      @Value("${clearway.refund-batches.page-size:200}") int pageSize,
      @Value("${clearway.refund-batches.settle-interval:5s}") Duration settleInterval) {
    BatchRefundEntry entry =
        request -> refunds.service().request(request, Duration.ZERO, refunds.syncAdvances());
    BatchRunner runner =
        new BatchRunner(
            new JdbcBatchRunStore(dataSource, dialect),
            entry,
            budget.getIfAvailable(PacedRateLimiter::new),
            new TokenMint(node.ownerFor("refund-batch")),
            new BatchRunSettings(qps, lease, pageSize, settleInterval, Duration.ofSeconds(1)),
            BatchEvents.NONE,
            clock.getIfAvailable(Clock::systemUTC));
    return new BatchRunnerLoop(runner, pollInterval);
  }
}
