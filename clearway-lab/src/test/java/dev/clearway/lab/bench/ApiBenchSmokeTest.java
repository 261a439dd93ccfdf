package dev.clearway.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.lab.ClearwayMain;
import dev.clearway.lab.LastJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Short runs of {@code clearway bench api --json} and {@code clearway bench soak --json}: the
 * service over HTTP, the load generator in its own JVM, payments reaching terminal; keeps the
 * commands working, keeps no figures.
 */
class ApiBenchSmokeTest {

  @Test
  void apiBenchPrintsItsFiguresAsJsonOnTheLastLine() {
    JsonNode json =
        lastLine(
            "bench", "api", "--duration", "8", "--warmup", "3", "--concurrency", "2", "--json");

    assertThat(names(json))
        .startsWith(
            "apiPaymentsPerSec",
            "postP50Ms",
            "postP99Ms",
            "terminalP50Ms",
            "terminalP99Ms",
            "cpuMsPerPayment",
            "inProcessPaymentsPerSec",
            "inProcessP99Ms",
            "apiRatio");
    // Payments reached terminal through the API; on a loaded machine possibly only in warm-up.
    assertThat(json.get("payments").intValue() + json.get("warmupPayments").intValue())
        .isPositive();
    assertThat(json.get("postP99Ms").doubleValue())
        .isGreaterThanOrEqualTo(json.get("postP50Ms").doubleValue());
    assertThat(json.get("terminalP50Ms").doubleValue())
        .isGreaterThanOrEqualTo(json.get("postP50Ms").doubleValue());
    assertThat(json.get("inProcessPayments").intValue()).isPositive();
    // The simulators answered from a JVM of their own, whose CPU is counted apart.
    assertThat(json.get("simulators").stringValue()).isEqualTo("own JVM");
    // GETs sent per payment after its POST: at least none, and counted.
    assertThat(json.get("getsPerPayment").doubleValue()).isGreaterThanOrEqualTo(0.0);
    // The JIT compilers' share of the service's CPU, read from the threads' own counters.
    assertThat(json.get("jitCpuMsPerPayment").isNumber()).isTrue();
    assertThat(json.get("inProcessCpuMsPerPayment").doubleValue()).isPositive();
    assertThat(json.get("apiRatio").doubleValue())
        .isCloseTo(
            json.get("apiPaymentsPerSec").doubleValue()
                / json.get("inProcessPaymentsPerSec").doubleValue(),
            org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void soakPrintsBothWindowsHeapAndTablesAsJsonOnTheLastLine() {
    JsonNode json =
        lastLine("bench", "soak", "--minutes", "0.1", "--rate", "20", "--warmup", "1", "--json");

    assertThat(names(json))
        .contains(
            "firstPaymentsPerSec",
            "lastPaymentsPerSec",
            "firstPostP99Ms",
            "lastPostP99Ms",
            "firstHeapAfterGcMb",
            "lastHeapAfterGcMb",
            "heapSlopeMbPerMin",
            "firstSimHeapAfterGcMb",
            "lastSimHeapAfterGcMb",
            "simHeapSlopeMbPerMin",
            "windows",
            "tableBytes");
    assertThat(json.get("payments").intValue()).isPositive();
    assertThat(json.get("windowSec").doubleValue()).isEqualTo(2.0);
    assertThat(json.get("lastHeapAfterGcMb").doubleValue()).isPositive();
    JsonNode windows = json.get("windows");
    assertThat(windows.size()).isEqualTo(3);
    assertThat(windows.get(0).get("paymentsPerSec").doubleValue())
        .isEqualTo(json.get("firstPaymentsPerSec").doubleValue());
    assertThat(windows.get(2).get("heapAfterGcMb").doubleValue())
        .isEqualTo(json.get("lastHeapAfterGcMb").doubleValue());
    // The simulators ran in a JVM of their own, which answered for its heap.
    assertThat(json.get("simulators").stringValue()).isEqualTo("own JVM");
    assertThat(json.get("lastSimHeapAfterGcMb").doubleValue()).isPositive();
    assertThat(windows.get(2).get("simHeapAfterGcMb").doubleValue())
        .isEqualTo(json.get("lastSimHeapAfterGcMb").doubleValue());
    List<String> tables = new ArrayList<>();
    json.get("tableBytes").propertyNames().forEach(tables::add);
    assertThat(tables).anyMatch(t -> t.startsWith("pay_flow"));
  }

  private static JsonNode lastLine(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit =
        ClearwayMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(exit).as(String.join("\n", lines)).isZero();
    return JsonMapper.builder().build().readTree(lines.get(lines.size() - 1));
  }

  private static List<String> names(JsonNode json) {
    List<String> names = LastJson.names(json);
    return names;
  }
}
