package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.store.testing.TestDatabase;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Smoke run of {@code bench drain}: the backlog drains and never exceeds the budget. */
class DrainBenchTest {

  @Test
  void aSmallBacklogDrainsWithinItsBudget() throws Exception {
    DrainBench.Result r =
        DrainBench.measure(
            TestDatabase.get().database(),
            200,
            100,
            new PrintStream(OutputStream.nullOutputStream()));

    assertThat(r.succeeded()).isEqualTo(200);
    assertThat(r.pspCalls()).isGreaterThanOrEqualTo(200);
    // Pacing: slots are spaced 1/B apart, so a calendar second sees B (+1 at its edge); a thread
    // the machine descheduled may land its call in the next second, hence the target's 5%.
    assertThat(r.peakPerSecond()).isLessThanOrEqualTo(105);
    JsonNode json = JsonMapper.builder().build().readTree(DrainBench.json(r, "on"));
    assertThat(json.get("backlog").intValue()).isEqualTo(200);
    assertThat(json.get("succeeded").longValue()).isEqualTo(r.succeeded());
    assertThat(json.get("peakPerSecond").longValue()).isEqualTo(r.peakPerSecond());
  }

  @Test
  void theJsonLineKeepsItsFieldsOrderAndDecimals() {
    DrainBench.Result r =
        new DrainBench.Result(2_000, 100, 20.12345, 1.0061725, 101, 1.01, 2_050, 2_000);

    String line = DrainBench.json(r, "on");

    assertThat(line)
        .isEqualTo(
            "{\"backlog\":2000,\"qps\":100,\"seconds\":20.123,\"timeRatio\":1.0062,"
                + "\"peakPerSecond\":101,\"peakRatio\":1.0100,\"pspCalls\":2050,\"succeeded\":2000,"
                + "\"synchronousCommit\":\"on\"}");
    JsonNode json = JsonMapper.builder().build().readTree(line);
    List<String> names = new ArrayList<>();
    json.propertyNames().forEach(names::add);
    assertThat(names)
        .containsExactly(
            "backlog",
            "qps",
            "seconds",
            "timeRatio",
            "peakPerSecond",
            "peakRatio",
            "pspCalls",
            "succeeded",
            "synchronousCommit");
    assertThat(json.get("timeRatio").doubleValue()).isEqualTo(1.0062);
    assertThat(String.format(java.util.Locale.ROOT, "%.4f", r.ratio()))
        .isEqualTo(json.get("timeRatio").decimalValue().toPlainString());
  }
}
