package dev.clearway.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Legacy in-flight markers in the machine's Redis, by an exact key and by a SCAN pattern. */
@Tag("redis")
class RedisLegacyMarkersTest {
  private static final String URL =
      System.getProperty("clearway.redis.url", "redis://127.0.0.1:6379");

  private static String prefix() {
    return "test:legacy:" + ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE) + ":";
  }

  @Test
  void anExactMarkerIsInFlightWithItsValueAsReference() {
    String prefix = prefix();
    try (RedisLink link = RedisLink.of(URL)) {
      assertThat(link.awaitConnected(Duration.ofSeconds(20))).isTrue();
      RedisLegacyMarkers markers =
          new RedisLegacyMarkers(link, prefix + "{merchant}:{user}:{scene}:{bizKey}");
      GoalKey goal = new GoalKey("m1", 7, "renewal", "b1");
      assertThat(markers.probe(goal)).isEqualTo(LegacyAnswer.clear());

      link.call("test", c -> c.setex(prefix + "m1:7:renewal:b1", 60, "LP-77"));
      link.call("test", c -> c.setex(prefix + "m1:8:renewal:b2", 60, ""));
      assertThat(markers.probe(goal)).isEqualTo(LegacyAnswer.inFlight("LP-77"));
      assertThat(markers.probe(new GoalKey("m1", 8, "renewal", "b2")))
          .isEqualTo(LegacyAnswer.inFlight(prefix + "m1:8:renewal:b2"));
      assertThat(markers.probe(new GoalKey("m2", 7, "renewal", "b1")))
          .isEqualTo(LegacyAnswer.clear());

      link.call("test", c -> c.del(prefix + "m1:7:renewal:b1"));
      assertThat(markers.probe(goal)).isEqualTo(LegacyAnswer.clear());
      assertThat(link.fallbacks(RedisLink.MARKERS)).isZero();
    }
  }

  @Test
  void aPatternIsFoundByScanAmongManyKeysAndTheGoalsGlobCharactersAreLiteral() {
    String prefix = prefix();
    try (RedisLink link = RedisLink.of(URL)) {
      assertThat(link.awaitConnected(Duration.ofSeconds(20))).isTrue();
      link.call(
          "test",
          c -> {
            for (int i = 0; i < 3_000; i++) {
              c.setex(prefix + "m1:" + i + ":renewal:other:LP-" + i, 60, "x");
            }
            return c.setex(prefix + "m1:7:renewal:b*1:LP-4242", 60, "x");
          });
      RedisLegacyMarkers markers =
          new RedisLegacyMarkers(link, prefix + "{merchant}:{user}:{scene}:{bizKey}:*");

      assertThat(markers.probe(new GoalKey("m1", 7, "renewal", "b*1")))
          .isEqualTo(LegacyAnswer.inFlight(prefix + "m1:7:renewal:b*1:LP-4242"));
      // "b*" would match "b*1" as a glob; escaped, it names only the goal "b*".
      assertThat(markers.probe(new GoalKey("m1", 7, "renewal", "b*")))
          .isEqualTo(LegacyAnswer.clear());
      assertThat(markers.probe(new GoalKey("m1", 9, "renewal", "b*1")))
          .isEqualTo(LegacyAnswer.clear());
    }
  }
}
