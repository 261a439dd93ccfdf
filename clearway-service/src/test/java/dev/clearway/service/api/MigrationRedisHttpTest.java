package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.redis.RedisLink;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Legacy in-flight markers in the machine's Redis hand a goal back over real HTTP. */
@Tag("redis")
class MigrationRedisHttpTest {
  private static final String URL =
      System.getProperty("clearway.redis.url", "redis://127.0.0.1:6379");
  private static final String PREFIX =
      "test:legacy:" + ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE) + ":";

  private static RunningApi node;
  private static RedisLink redis;

  @BeforeAll
  static void start() {
    redis = RedisLink.of(URL);
    // A loaded machine may miss the first connect's 2 s; the link retries after its down window.
    long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!redis.awaitConnected(Duration.ofSeconds(5)) && System.nanoTime() < giveUp) {
      Thread.onSpinWait();
    }
    assertThat(redis.awaitConnected(Duration.ofSeconds(5))).isTrue();
    node =
        RunningApi.start(
            "clearway.instance-id=migration-redis",
            "clearway.migration.enabled=true",
            "clearway.migration.rollout-basis-points=10000",
            "clearway.migration.markers.redis-url=" + URL,
            "clearway.migration.markers.pattern=" + PREFIX + "{merchant}:{user}:{scene}:{bizKey}");
  }

  @AfterAll
  static void stop() {
    node.close();
    redis.close();
  }

  /** The node's own link may still be connecting: 503 legacy_unknown, retried as a client would. */
  private static RunningApi.Answer payPastUnknown(String key, RunningApi.Payment payment)
      throws InterruptedException {
    long giveUp = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    RunningApi.Answer answer = node.pay(key, payment);
    while (answer.status() == 503 && System.nanoTime() < giveUp) {
      assertThat(answer.code()).isEqualTo("legacy_unknown");
      Thread.sleep(500);
      answer = node.pay(key, payment);
    }
    return answer;
  }

  @Test
  void aMarkerHandsTheGoalBackNamingItsValueAndItsRemovalLetsClearwayPay()
      throws InterruptedException {
    RunningApi.resetDatabase();
    String key = PREFIX + "default:62001:renewal:rd-1";
    redis.call("test", c -> c.setex(key, 60, "LEGACY-ORDER-9"));
    RunningApi.Rows rows = RunningApi.rows();

    RunningApi.Answer paid = payPastUnknown("redis-1", RunningApi.Payment.of(62001, "rd-1"));
    assertThat(paid.status()).as(paid.body()).isEqualTo(409);
    assertThat(paid.code()).isEqualTo("legacy_in_flight");
    assertThat(paid.text("legacyReference")).isEqualTo("LEGACY-ORDER-9");
    assertThat(RunningApi.rows()).isEqualTo(rows);
    String metrics =
        node.call("GET", "/actuator/prometheus").bearer(RunningApi.OPERATOR_KEY).send().body();
    assertThat(metrics).contains("clearway_migration_handbacks_total{reason=\"marker\"} 1.0");

    redis.call("test", c -> c.del(key));
    RunningApi.Answer retried = payPastUnknown("redis-1", RunningApi.Payment.of(62001, "rd-1"));
    assertThat(retried.status()).as(retried.body()).isEqualTo(201);
  }
}
