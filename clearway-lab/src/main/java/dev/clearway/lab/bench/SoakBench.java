package dev.clearway.lab.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * {@code clearway bench soak}: the service of {@code bench api} driven by the same load generator
 * at a constant rate (an open loop: payments start on time whatever the answers) for a number of
 * minutes; payments per second and POST p99 of the first and of the last window (five minutes, or a
 * third of a shorter run) and of every window between, the service JVM's heap after a full
 * collection at the end of each with its least-squares slope, and the largest tables' sizes before
 * and after. The simulated wallet and business run in a JVM of their own ({@link SimJvm}): they
 * keep every order, grant and ledger line of the run for their statements, so in the service's JVM
 * they would grow its heap with every payment; their heap is read and printed apart. Without a
 * rate, a short closed-loop run at 16 clients on the same service measures what the API reaches,
 * and the soak runs at half of it.
 */
public final class SoakBench {
  private static final double WINDOW_SEC = 300;
  private static final int PROBE_CLIENTS = 16;

  private SoakBench() {}

  /** Options of {@code bench soak}; {@code rate} 0 means half of a short {@code bench api}. */
  public record Options(
      double minutes, double rate, double warmupSec, String jdbcUrl, boolean json) {
    public Options {
      if (minutes <= 0 || rate < 0 || warmupSec < 0) {
        throw new IllegalArgumentException("--minutes > 0, --rate >= 0, --warmup >= 0");
      }
    }
  }

  public static int run(Options o, PrintStream out, PrintStream err) throws InterruptedException {
    try (ApiService service = ApiService.startWithOwnSimulators(o.jdbcUrl(), err)) {
      double rate = o.rate() > 0 ? o.rate() : probe(service, err) / 2;
      double duration = o.minutes() * 60;
      double window = Math.min(WINDOW_SEC, duration / 3);
      err.printf(
          Locale.ROOT,
          "bench soak: %.1f payments/s for %.1f min after a %.0f s warm-up, windows of %.0f s%n",
          rate,
          o.minutes(),
          o.warmupSec(),
          window);
      Map<String, Long> before = TableSizes.largest(service.database().dataSource(), 6);
      HeapSeries heap = new HeapSeries(window, duration);
      HeapSeries simHeap = new HeapSeries(window, duration, service.simulators()::heapAfterGc);
      JsonNode load =
          LoadProcess.run(
              service.base(),
              service.merchantKey(),
              new ApiLoad.Plan(1, rate, o.warmupSec(), duration, window),
              new LoadProcess.Marks() {
                @Override
                public void warmupDone() {
                  heap.start();
                  simHeap.start();
                }

                @Override
                public void measureDone() {
                  heap.finish();
                  simHeap.finish();
                }
              });
      Map<String, Long> after = TableSizes.largest(service.database().dataSource(), 6);
      Map<String, Object> json = json(o, rate, window, load, heap, simHeap, after);
      print(json, before, after, out);
      if (o.json()) {
        out.println(BenchJson.line(json));
      }
      return load.get("measured").get("payments").intValue() > 0 ? 0 : 1;
    }
  }

  /** What the API reaches at 16 clients in a short closed-loop run (also the soak's warm-up). */
  private static double probe(ApiService service, PrintStream err) {
    err.println("bench soak: measuring the API rate (10 s warm-up, 20 s at 16 clients)");
    JsonNode load =
        LoadProcess.run(
            service.base(),
            service.merchantKey(),
            new ApiLoad.Plan(PROBE_CLIENTS, 0, 10, 20, 0),
            new LoadProcess.Marks() {
              @Override
              public void warmupDone() {}

              @Override
              public void measureDone() {}
            });
    return Math.max(1, load.get("measured").get("paymentsPerSec").doubleValue());
  }

  private static Map<String, Object> json(
      Options o,
      double rate,
      double window,
      JsonNode load,
      HeapSeries heap,
      HeapSeries simHeap,
      Map<String, Long> sizes) {
    JsonNode m = load.get("measured");
    JsonNode first = load.get("first");
    JsonNode last = load.get("last");
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("ratePerSec", BenchJson.fixed(rate, 2));
    json.put("minutes", BenchJson.fixed(o.minutes(), 2));
    json.put("windowSec", BenchJson.fixed(window, 1));
    json.put("payments", m.get("payments").intValue());
    json.put("failed", m.get("failed").intValue());
    json.put("paymentsPerSec", BenchJson.fixed(m.get("paymentsPerSec").doubleValue(), 2));
    json.put("postP99Ms", BenchJson.fixed(m.get("postP99Ms").doubleValue(), 3));
    json.put("firstPaymentsPerSec", BenchJson.fixed(first.get("paymentsPerSec").doubleValue(), 2));
    json.put("lastPaymentsPerSec", BenchJson.fixed(last.get("paymentsPerSec").doubleValue(), 2));
    json.put("firstPostP99Ms", BenchJson.fixed(first.get("postP99Ms").doubleValue(), 3));
    json.put("lastPostP99Ms", BenchJson.fixed(last.get("postP99Ms").doubleValue(), 3));
    JsonNode series = load.get("windows");
    int count = series == null ? 1 : Math.max(1, series.size());
    List<Double> mb = heap.megabytes(count);
    List<Double> simMb = simHeap.megabytes(count);
    json.put("firstHeapAfterGcMb", mb(mb.get(0)));
    json.put("lastHeapAfterGcMb", mb(mb.get(mb.size() - 1)));
    json.put("heapSlopeMbPerMin", BenchJson.fixed(heap.slopeMbPerMin(), 3));
    json.put("simulators", "own JVM");
    json.put("firstSimHeapAfterGcMb", mb(simMb.get(0)));
    json.put("lastSimHeapAfterGcMb", mb(simMb.get(simMb.size() - 1)));
    json.put("simHeapSlopeMbPerMin", BenchJson.fixed(simHeap.slopeMbPerMin(), 3));
    json.put("windows", windows(series, mb, simMb));
    json.put("tableBytes", sizes);
    return json;
  }

  /**
   * Each window's payments/s and POST p99, and the service's and the simulators' heap after GC read
   * at its end.
   */
  private static List<Map<String, Object>> windows(
      JsonNode series, List<Double> mb, List<Double> simMb) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; series != null && i < series.size(); i++) {
      JsonNode w = series.get(i);
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("paymentsPerSec", BenchJson.fixed(w.get("paymentsPerSec").doubleValue(), 2));
      row.put("postP99Ms", BenchJson.fixed(w.get("postP99Ms").doubleValue(), 3));
      row.put("heapAfterGcMb", mb(mb.get(i)));
      row.put("simHeapAfterGcMb", mb(simMb.get(i)));
      rows.add(row);
    }
    return rows;
  }

  private static Object mb(Double megabytes) {
    return megabytes == null ? null : BenchJson.fixed(megabytes, 1);
  }

  private static void print(
      Map<String, Object> j, Map<String, Long> before, Map<String, Long> after, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "rate                %s payments/s for %s min (%s payments, %s failed)%n",
        j.get("ratePerSec"),
        j.get("minutes"),
        j.get("payments"),
        j.get("failed"));
    out.printf(
        Locale.ROOT,
        "payments/s          first %s s: %s, last: %s%n",
        j.get("windowSec"),
        j.get("firstPaymentsPerSec"),
        j.get("lastPaymentsPerSec"));
    out.printf(
        Locale.ROOT,
        "POST p99            first: %s ms, last: %s ms%n",
        j.get("firstPostP99Ms"),
        j.get("lastPostP99Ms"));
    out.printf(
        Locale.ROOT,
        "heap after GC       first: %s MB, last: %s MB (the service's JVM)%n",
        j.get("firstHeapAfterGcMb"),
        j.get("lastHeapAfterGcMb"));
    out.printf(
        Locale.ROOT,
        "simulators' heap    first: %s MB, last: %s MB (their own JVM)%n",
        j.get("firstSimHeapAfterGcMb"),
        j.get("lastSimHeapAfterGcMb"));
    printSeries(j, out);
    after.forEach(
        (table, bytes) ->
            out.printf(
                Locale.ROOT,
                "table %-24s %,d kB (before %,d kB)%n",
                table,
                bytes / 1024,
                before.getOrDefault(table, 0L) / 1024));
  }

  @SuppressWarnings("unchecked")
  private static void printSeries(Map<String, Object> j, PrintStream out) {
    double window = ((Number) j.get("windowSec")).doubleValue();
    List<Map<String, Object>> rows = (List<Map<String, Object>>) j.get("windows");
    out.printf(
        Locale.ROOT,
        "window (min)        payments/s   POST p99 ms   heap after GC MB   simulators' MB%n");
    for (int i = 0; i < rows.size(); i++) {
      Map<String, Object> r = rows.get(i);
      out.printf(
          Locale.ROOT,
          "%6.2f-%-12.2f %11s %13s %18s %16s%n",
          i * window / 60,
          Math.min((i + 1) * window / 60, ((Number) j.get("minutes")).doubleValue()),
          r.get("paymentsPerSec"),
          r.get("postP99Ms"),
          r.get("heapAfterGcMb"),
          r.get("simHeapAfterGcMb"));
    }
    out.printf(
        Locale.ROOT,
        "heap slope          %s MB/min, simulators' %s MB/min (least squares)%n",
        j.get("heapSlopeMbPerMin"),
        j.get("simHeapSlopeMbPerMin"));
  }
}
