package dev.clearway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.port.CallBudget;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.port.EntryLock;
import dev.clearway.redis.RedisCallBudget;
import dev.clearway.redis.RedisEntryLock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code clearway.redis.url} selects the Redis lock and budget; without it there are none. */
class RedisAutoConfigurationTest {

  @Configuration(proxyBeanMethods = false)
  static class Meters {
    @Bean
    MeterRegistry meterRegistry() {
      return new SimpleMeterRegistry();
    }
  }

  @Test
  void theUrlSelectsTheRedisLockAndBudgetWhichFallBackWhileRedisIsUnreachable() {
    try (ConfigurableApplicationContext context =
        context("clearway.redis.url=redis://127.0.0.1:1", "clearway.budget.nodes=3")) {
      EntryLock lock = context.getBean(EntryLock.class);
      CallBudget budget = context.getBean(CallBudget.class);
      assertThat(lock).isInstanceOf(RedisEntryLock.class);
      assertThat(budget).isInstanceOf(RedisCallBudget.class);
      assertThat(((RedisCallBudget) budget).shareOf(30)).isEqualTo(10);

      GoalKey goal = new GoalKey("m1", 1, "renewal", "b1");
      assertThat(lock.tryLock(goal, Duration.ofMillis(100))).isEmpty();
      assertThat(budget.tryAcquire(5, 30, Duration.ZERO)).isTrue();
      MeterRegistry meters = context.getBean(MeterRegistry.class);
      assertThat(
              meters.get("clearway.redis.fallbacks").tag("use", "lock").functionCounter().count())
          .isEqualTo(1.0);
      assertThat(
              meters.get("clearway.redis.fallbacks").tag("use", "budget").functionCounter().count())
          .isEqualTo(1.0);
    }
  }

  @Test
  void withoutTheUrlThereIsNoRedis() {
    try (ConfigurableApplicationContext context = context("clearway.budget.nodes=3")) {
      assertThat(context.getBeanNamesForType(EntryLock.class)).isEmpty();
      assertThat(context.getBeanNamesForType(CallBudget.class)).isEmpty();
    }
  }

  private static ConfigurableApplicationContext context(String... properties) {
    return new SpringApplicationBuilder(Meters.class, ClearwayRedisAutoConfiguration.class)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run();
  }
}
