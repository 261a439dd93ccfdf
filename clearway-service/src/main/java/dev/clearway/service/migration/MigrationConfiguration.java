package dev.clearway.service.migration;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.migration.domain.Rollout;
import dev.clearway.core.migration.engine.MigrationRouter;
import dev.clearway.core.migration.port.LegacyMarkers;
import dev.clearway.core.migration.port.LegacyPaymentStore;
import dev.clearway.redis.RedisLegacyMarkers;
import dev.clearway.redis.RedisLink;
import dev.clearway.service.api.PaymentApi;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.migration.JdbcLegacyPaymentStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * The gray migration from a legacy payment path, with {@code clearway.migration.enabled=true} (off
 * by default): the rollout ({@code rollout-basis-points}, {@code allow}, {@code deny} as {@code
 * merchant:userId} lists), the legacy in-flight markers in Redis ({@code markers.pattern}, {@code
 * markers.redis-url}, default {@code clearway.redis.url}), the legacy payment store ({@code
 * legacy.query} on {@code legacy.jdbc-url}, or on the service's own database without one; or {@code
 * legacy.http-url}), {@code probe-timeout}, {@code retry-after}, and the switch that rolls
 * new-payment intake back ({@code /ops/migration}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "clearway.migration.enabled", havingValue = "true")
@Import({MigrationController.class, GoalController.class})
public class MigrationConfiguration {
  private static final String P = "clearway.migration.";

  @Bean
  MigrationSwitch migrationSwitch(
      DataSource dataSource, SqlDialect dialect, ObjectProvider<Clock> clock, Environment env) {
    return new MigrationSwitch(
        dataSource,
        dialect,
        clock.getIfAvailable(Clock::systemUTC),
        env.getProperty(P + "switch-cache", Duration.class, Duration.ofSeconds(1)));
  }

  @Bean
  MicrometerMigrationEvents migrationEvents(MeterRegistry registry) {
    return new MicrometerMigrationEvents(registry);
  }

  @Bean
  MigrationGate migrationGate(
      FlowStore flows,
      MigrationSwitch migrationSwitch,
      MicrometerMigrationEvents events,
      DataSource dataSource,
      Environment env) {
    Rollout rollout =
        new Rollout(
            env.getProperty(P + "rollout-basis-points", Integer.class, 0),
            users(env.getProperty(P + "allow", "")),
            users(env.getProperty(P + "deny", "")));
    Duration timeout = env.getProperty(P + "probe-timeout", Duration.class, Duration.ofSeconds(1));
    MigrationRouter router =
        new MigrationRouter(
            rollout,
            migrationSwitch::rolledBack,
            markers(env, timeout),
            legacyStore(env, dataSource, timeout),
            flows,
            events);
    return new MigrationGate(
        router, env.getProperty(P + "retry-after", Duration.class, Duration.ofSeconds(2)));
  }

  @Bean
  GoalApi goalApi(FlowStore flows, PaymentApi payments, MigrationGate migrationGate) {
    return new GoalApi(flows, payments, migrationGate);
  }

  private static LegacyMarkers markers(Environment env, Duration timeout) {
    String pattern = env.getProperty(P + "markers.pattern", "");
    if (pattern.isBlank()) {
      return LegacyMarkers.NONE;
    }
    String url =
        env.getProperty(P + "markers.redis-url", env.getProperty("clearway.redis.url", ""));
    if (url.isBlank()) {
      throw new IllegalStateException(
          P + "markers.pattern needs " + P + "markers.redis-url or clearway.redis.url");
    }
    RedisLink link = RedisLink.of(url, timeout, Duration.ofSeconds(1));
    link.awaitConnected(RedisLink.CONNECT_TIMEOUT);
    return new RedisLegacyMarkers(link, pattern);
  }

  private static LegacyPaymentStore legacyStore(Environment env, DataSource own, Duration timeout) {
    String http = env.getProperty(P + "legacy.http-url", "");
    String query = env.getProperty(P + "legacy.query", "");
    if (!http.isBlank() && !query.isBlank()) {
      throw new IllegalStateException(
          "configure either " + P + "legacy.query or " + P + "legacy.http-url, not both");
    }
    if (!http.isBlank()) {
      return new HttpLegacyPaymentStore(URI.create(http), timeout);
    }
    if (query.isBlank()) {
      return LegacyPaymentStore.NONE;
    }
    int seconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    String jdbcUrl = env.getProperty(P + "legacy.jdbc-url", "");
    if (jdbcUrl.isBlank()) {
      return new JdbcLegacyPaymentStore(own, query, seconds);
    }
    HikariConfig config = new HikariConfig();
    config.setPoolName("clearway-legacy");
    config.setJdbcUrl(jdbcUrl);
    config.setUsername(env.getProperty(P + "legacy.username"));
    config.setPassword(env.getProperty(P + "legacy.password"));
    config.setMaximumPoolSize(env.getProperty(P + "legacy.pool-size", Integer.class, 4));
    config.setConnectionTimeout(Math.max(250, timeout.toMillis()));
    config.setInitializationFailTimeout(-1);
    config.setReadOnly(true);
    return new JdbcLegacyPaymentStore(new HikariDataSource(config), query, seconds);
  }

  private static Set<String> users(String list) {
    return Arrays.stream(list.split(","))
        .map(String::strip)
        .filter(s -> !s.isEmpty())
        .collect(Collectors.toUnmodifiableSet());
  }
}
