package dev.clearway.service.api;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.CancelService;
import dev.clearway.core.flow.engine.InProcessEntryLock;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.EntryLock;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.OverloadEvents;
import dev.clearway.core.runtime.BoundedPool;
import dev.clearway.service.metrics.FlowStateGauges;
import dev.clearway.service.metrics.MicrometerEngineEvents;
import dev.clearway.service.migration.MigrationGate;
import dev.clearway.service.node.PaymentIntake;
import dev.clearway.store.JdbcCallbackInbox;
import dev.clearway.store.JdbcIdempotencyStore;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.channel.JdbcPaymentDetails;
import io.micrometer.core.instrument.MeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;

/** The payment API: keys, filters, idempotency store, entry lock, and the API service. */
@Configuration(proxyBeanMethods = false)
@Import({
  PaymentController.class,
  CallbackController.class,
  ChannelWebhookController.class,
  PaymentMethodController.class,
  ApiExceptionHandler.class,
  ApiDocumentation.class
})
public class ApiConfiguration {

  /**
   * Keys from {@code clearway.keys.merchant|operator|approver|metrics} or the environment variables
   * CLEARWAY_MERCHANT_KEYS, CLEARWAY_OPERATOR_KEYS, CLEARWAY_APPROVER_KEYS, CLEARWAY_METRICS_KEYS
   * (comma-separated, {@code name=key} as {@link KeyEntries} reads it); a refused entry stops the
   * start. A merchant, operator or approver role without keys gets one generated for this run,
   * shown only on a terminal by the command line.
   */
  @Bean
  ApiKeys apiKeys(Environment env) {
    Map<Role, String> configured = new EnumMap<>(Role.class);
    for (Role role : Role.values()) {
      String fromProperty = env.getProperty("clearway.keys." + role.label());
      configured.put(
          role, fromProperty != null ? fromProperty : env.getProperty(role.variable(), ""));
    }
    return new ApiKeys(configured);
  }

  /**
   * Strict JSON for money: a fractional amount, a number sent as a string and a duplicated field
   * are malformed requests, never silently converted.
   */
  @Bean
  JsonMapperBuilderCustomizer strictJson() {
    return builder ->
        builder
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION);
  }

  /** First of all filters: nothing reads a body before its size is checked. */
  @Bean
  FilterRegistrationBean<BodyLimitFilter> bodyLimitFilter() {
    FilterRegistrationBean<BodyLimitFilter> bean =
        new FilterRegistrationBean<>(new BodyLimitFilter());
    bean.setOrder(Ordered.HIGHEST_PRECEDENCE);
    return bean;
  }

  @Bean
  FilterRegistrationBean<ApiKeyFilter> apiKeyFilter(ApiKeys keys) {
    FilterRegistrationBean<ApiKeyFilter> bean =
        new FilterRegistrationBean<>(new ApiKeyFilter(keys));
    bean.setOrder(2);
    return bean;
  }

  @Bean
  EngineEvents engineEvents(MeterRegistry registry) {
    return new MicrometerEngineEvents(registry);
  }

  /**
   * Read from the database every {@code clearway.metrics.refresh} (default 5 s), never per scrape.
   */
  @Bean(destroyMethod = "close")
  FlowStateGauges flowStateGauges(
      DataSource dataSource,
      MeterRegistry registry,
      ObjectProvider<Clock> clock,
      @Value("${clearway.metrics.refresh:5s}") Duration refresh) {
    return new FlowStateGauges(
        dataSource, registry, clock.getIfAvailable(Clock::systemUTC), refresh.toMillis());
  }

  /**
   * Callback secrets: the simulated wallet's from {@code clearway.callbacks.sim-secret} or the
   * environment variable CLEARWAY_SIM_WEBHOOK_SECRET, else generated for this process (the
   * in-process simulator is handed the same bean).
   */
  @Bean
  CallbackChannels callbackChannels(Environment env) {
    String sim = env.getProperty("clearway.callbacks.sim-secret");
    if (sim == null || sim.isBlank()) {
      sim = env.getProperty("CLEARWAY_SIM_WEBHOOK_SECRET", "");
    }
    if (sim.isBlank()) {
      byte[] raw = new byte[24];
      new SecureRandom().nextBytes(raw);
      sim = "whsec_" + HexFormat.of().formatHex(raw);
    }
    return new CallbackChannels(Map.of("sim", sim));
  }

  @Bean
  JdbcCallbackInbox callbackInbox(DataSource dataSource, SqlDialect dialect) {
    return new JdbcCallbackInbox(dataSource, dialect);
  }

  @Bean
  JdbcIdempotencyStore idempotencyStore(DataSource dataSource, SqlDialect dialect) {
    return new JdbcIdempotencyStore(dataSource, dialect);
  }

  @Bean
  EntryLock entryLock() {
    return new InProcessEntryLock();
  }

  /**
   * Runs synchronous advances so that a request can stop waiting while the advance goes on: {@code
   * clearway.api.sync-threads} threads and at most {@code clearway.api.sync-queue} waiting
   * advances. Beyond that the request is answered 503 {@code overloaded} (its payment exists and
   * the scanner advances it), counted in {@code clearway.overload.rejected{pool="payment-sync"}}.
   */
  @Bean(destroyMethod = "shutdown")
  ExecutorService syncAdvanceExecutor(
      @Value("${clearway.api.sync-threads:32}") int threads,
      @Value("${clearway.api.sync-queue:64}") int queue,
      OverloadEvents overload) {
    return BoundedPool.create(
        "clearway-sync", threads, queue, () -> overload.rejected("payment-sync"));
  }

  @Bean
  PaymentApi paymentApi(
      EngineAssembly engine,
      FlowStore flows,
      JdbcIdempotencyStore idempotency,
      EntryLock entryLock,
      ExecutorService syncAdvanceExecutor,
      ObjectProvider<Clock> clock,
      ObjectProvider<PaymentIntake> intake,
      ObjectProvider<MigrationGate> migration,
      ObjectProvider<ChannelGateway> channels,
      DataSource dataSource,
      SqlDialect dialect,
      @Value("${clearway.api.max-amount:100000000}") long maxAmount,
      @Value("${clearway.api.sync-budget:1s}") Duration syncBudget,
      @Value("${clearway.api.overload-retry-after:2s}") Duration retryAfter) {
    Clock c = clock.getIfAvailable(Clock::systemUTC);
    CancelService cancels =
        new CancelService(flows, id -> engine.runtime().wake(id, TriggerSource.API), c);
    return new PaymentApi(
        new PaymentRequestValidator(maxAmount, c),
        cancels,
        idempotency,
        entryLock,
        engine.payments(),
        flows,
        syncAdvanceExecutor,
        syncBudget,
        retryAfter,
        c,
        intake.getIfAvailable(PaymentIntake::open),
        migration.getIfAvailable(() -> MigrationGate.OFF),
        new ClientDetails(
            new FirstLookup<>(channels), new JdbcPaymentDetails(dataSource, dialect), c));
  }
}
