package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.CommandRun;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * {@code clearway bench archive} with a million archived flows: both legs run, and neither the
 * scanner round nor the payment rate collapses with the archive (loose bounds: a shared build
 * machine; the figures at ten million are in BENCHMARKS.md).
 */
class ArchiveBenchSmokeTest {

  @Test
  void aMillionArchivedFlowsLeaveTheScannerAndThePaymentsAlone() {
    CommandRun run =
        CommandRun.of(
            "bench",
            "archive",
            "--archived-rows",
            "1000000",
            "--hot-rows",
            "20000",
            "--payments",
            "600",
            "--concurrency",
            "4",
            "--json");
    System.err.print(run.out());
    JsonNode json = run.lastJson();

    assertThat(run.exit()).isZero();
    assertThat(json.get("archivedRows").longValue()).isEqualTo(1_000_000L);
    assertThat(json.get("scannerRatio").doubleValue()).isBetween(0.0, 4.0);
    assertThat(json.get("paymentsRatio").doubleValue()).isGreaterThan(0.25);
    assertThat(json.get("synchronousCommit").stringValue()).isEqualTo("on");
  }
}
