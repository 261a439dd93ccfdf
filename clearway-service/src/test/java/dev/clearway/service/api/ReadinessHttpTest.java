package dev.clearway.service.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Readiness follows the database: down while no connection can be made (a real connection failure),
 * up again when it can. Liveness stays up throughout: the process is sound, it only waits for its
 * database.
 */
class ReadinessHttpTest {

  @Test
  void readinessIsDownWhileTheDatabaseIsUnreachableAndLivenessStaysUp() throws Exception {
    BreakableDataSource dataSource = new BreakableDataSource(TestDatabase.get().dataSource());
    try (RunningApi node =
        RunningApi.start(pool -> dataSource, "clearway.instance-id=node-health")) {
      assertThat(probe(node, "readiness")).isEqualTo(200);
      assertThat(probe(node, "liveness")).isEqualTo(200);

      dataSource.breakIt();
      try {
        RunningApi.Answer down = node.call("GET", "/actuator/health/readiness").send();
        assertThat(down.status()).as(down.body()).isEqualTo(503);
        assertThat(down.text("status")).isEqualTo("DOWN");
        RunningApi.Answer alive = node.call("GET", "/actuator/health/liveness").send();
        assertThat(alive.status()).as(alive.body()).isEqualTo(200);
        assertThat(alive.text("status")).isEqualTo("UP");
      } finally {
        dataSource.heal();
      }

      Instant giveUp = Instant.now().plusSeconds(10);
      while (probe(node, "readiness") != 200 && Instant.now().isBefore(giveUp)) {
        Thread.sleep(100);
      }
      assertThat(probe(node, "readiness")).isEqualTo(200);
    }
  }

  private static int probe(RunningApi node, String group) {
    return node.call("GET", "/actuator/health/" + group).send().status();
  }
}
