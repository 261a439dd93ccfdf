package dev.clearway.boot;

import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.flow.port.EntryLock;
import dev.clearway.redis.RedisCallBudget;
import dev.clearway.redis.RedisEntryLock;
import dev.clearway.redis.RedisLink;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The cluster options, when {@code clearway.redis.url} is set and {@code clearway-redis} is on the
 * class path: the entry lock across nodes ({@link RedisEntryLock}) and each account's call budget
 * shared by all nodes ({@link RedisCallBudget}). Both are primary, so they replace the in-process
 * ones. Their fallbacks while Redis is unreachable are counted in {@code
 * clearway.redis.fallbacks{use}}.
 */
@AutoConfiguration(
    before = {ClearwayChannelAutoConfiguration.class, ClearwayAutoConfiguration.class})
@ConditionalOnClass(RedisLink.class)
@ConditionalOnProperty(prefix = "clearway.redis", name = "url")
@EnableConfigurationProperties({ClearwayRedisProperties.class, ClearwayBudgetProperties.class})
public class ClearwayRedisAutoConfiguration {

  /** How long the start waits for the first connect; calls fall back until it is made. */
  private static final Duration FIRST_CONNECT = Duration.ofSeconds(3);

  @Bean(destroyMethod = "close")
  RedisLink clearwayRedisLink(
      ClearwayRedisProperties properties, ObjectProvider<MeterRegistry> meters) {
    RedisLink link =
        RedisLink.of(
            properties.url(), properties.timeoutOrDefault(), properties.downForOrDefault());
    link.awaitConnected(FIRST_CONNECT);
    meters.ifAvailable(
        registry -> {
          for (String use : List.of(RedisLink.LOCK, RedisLink.BUDGET)) {
            FunctionCounter.builder("clearway.redis.fallbacks", link, l -> l.fallbacks(use))
                .tag("use", use)
                .description("calls that fell back because Redis was unreachable")
                .register(registry);
          }
        });
    return link;
  }

  @Bean
  @Primary
  EntryLock clearwayRedisEntryLock(RedisLink link, ClearwayRedisProperties properties) {
    return new RedisEntryLock(link, properties.lockTtlOrDefault());
  }

  @Bean
  @Primary
  CallBudget clearwayRedisCallBudget(RedisLink link, ClearwayBudgetProperties budget) {
    return new RedisCallBudget(link, budget.nodesOrDefault());
  }
}
