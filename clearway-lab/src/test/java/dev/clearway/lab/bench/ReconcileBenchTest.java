package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.CommandRun;
import dev.clearway.lab.LastJson;
import dev.clearway.store.testing.TestDatabase;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A small run of {@code clearway bench reconcile --json}: keeps the command working and checks that
 * the reconciliation found every planted difference and nothing else; keeps no figures.
 */
class ReconcileBenchTest {

  @Test
  void findsThePlantedDifferencesAndPrintsTheFiguresAsJson() {
    CommandRun run =
        CommandRun.of(
            "bench",
            "reconcile",
            "--lines",
            "2000",
            "--json",
            "--jdbc-url",
            TestDatabase.get().database().jdbcUrl());
    JsonNode json = run.lastJson();

    assertThat(run.exit()).isZero();
    List<String> names = LastJson.names(json);
    assertThat(names)
        .startsWith(
            "importMs",
            "reconcileMs",
            "totalMs",
            "baselineMs",
            "ratio",
            "peakHeapMiB",
            "maxHeapMiB",
            "lines",
            "differences");
    assertThat(json.get("lines").intValue()).isEqualTo(2000);
    // Read from the database the command ran on: here the tests' own, which defers its commits.
    assertThat(json.get("synchronousCommit").stringValue())
        .isEqualTo(TestDatabase.get().database().synchronousCommit());
    assertThat(json.get("totalMs").longValue())
        .isEqualTo(json.get("importMs").longValue() + json.get("reconcileMs").longValue());
    assertThat(json.get("baselineMs").longValue()).isPositive();
    assertThat(json.get("ratio").doubleValue()).isPositive();
    assertThat(json.get("peakHeapMiB").doubleValue())
        .isPositive()
        .isLessThanOrEqualTo(json.get("maxHeapMiB").doubleValue());
    // Two of each of the four planted classes, found exactly: nothing missed, nothing extra.
    assertThat(json.get("differences").intValue()).isEqualTo(8);
    assertThat(json.get("found")).isEqualTo(json.get("planted"));
    assertThat(json.get("planted").get("AMOUNT_MISMATCH").intValue()).isEqualTo(2);
    assertThat(json.get("planted").get("UNKNOWN_STATEMENT_LINE").intValue()).isEqualTo(2);
    assertThat(json.get("planted").get("BIZ_SUCCESS_WITHOUT_CHARGE").intValue()).isEqualTo(2);
    assertThat(json.get("planted").get("CHARGED_LOCAL_PAYING").intValue()).isEqualTo(2);
    // The time by phase: every phase present, together the import and the reconciliation (each
    // rounded down to the millisecond, as the two totals are).
    long phases = 0;
    for (String phase :
        List.of("parse", "copy", "agree", "match", "settlement", "differences", "unseen")) {
      assertThat(json.get(phase + "Ms").longValue()).as(phase).isNotNegative();
      phases += json.get(phase + "Ms").longValue();
    }
    assertThat(phases)
        .isBetween(json.get("totalMs").longValue() - 8, json.get("totalMs").longValue() + 1);
    assertThat(json.get("copyMs").longValue()).isPositive();
    assertThat(json.get("agreeMs").longValue()).isPositive();
    // The baseline's join sees the amount mismatches and the unknown lines.
    assertThat(json.get("baselineDiffering").intValue()).isEqualTo(4);
  }
}
