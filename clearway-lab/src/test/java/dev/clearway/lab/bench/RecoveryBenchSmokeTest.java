package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.CommandRun;
import dev.clearway.lab.LastJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A small run of {@code clearway bench recovery --json}: every flow reaches BIZ_SUCCESS,
 * db-scheduler executes every task, and the JSON names its figures. Keeps no figures (BENCHMARKS.md
 * does).
 */
class RecoveryBenchSmokeTest {

  @Test
  void everyFlowReachesBizSuccessAndEveryTaskRuns() {
    CommandRun run =
        CommandRun.of("bench", "recovery", "--flows", "300", "--threads", "4", "--json");
    List<String> lines = run.out().lines().toList();
    System.err.print(run.out());
    JsonNode json = run.lastJson();

    assertThat(run.exit()).isZero();
    List<String> names = LastJson.names(json);
    assertThat(names)
        .containsExactly(
            "flowsPerSec",
            "transitionsPerSec",
            "dbSchedulerExecutionsPerSec",
            "recoveryRatio",
            "synchronousCommit");
    // Both legs are measured with durable commits.
    assertThat(json.get("synchronousCommit").asString()).isEqualTo("on");
    assertThat(lines).anyMatch(l -> l.matches("flows +300 PAYING -> 300 BIZ_SUCCESS in .*"));
    assertThat(lines)
        .anyMatch(l -> l.matches("db-scheduler +300 of 300 no-op tasks in .*, 0 left"));
    assertThat(lines).anyMatch(l -> l.matches("transitions/s .*\\(600 history rows\\)"));
    assertThat(json.get("flowsPerSec").doubleValue()).isPositive();
    // Two transitions per flow: PAYING -> PAYED -> BIZ_SUCCESS.
    assertThat(json.get("transitionsPerSec").doubleValue())
        .isCloseTo(
            2 * json.get("flowsPerSec").doubleValue(), org.assertj.core.data.Offset.offset(0.1));
    assertThat(json.get("recoveryRatio").doubleValue())
        .isCloseTo(
            json.get("transitionsPerSec").doubleValue()
                / json.get("dbSchedulerExecutionsPerSec").doubleValue(),
            org.assertj.core.data.Offset.offset(0.01));
  }
}
