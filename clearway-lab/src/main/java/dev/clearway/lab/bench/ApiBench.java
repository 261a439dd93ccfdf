package dev.clearway.lab.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * {@code clearway bench api}: payments as a user makes them, through {@code POST /v1/payments} of
 * the service started as {@code serve} starts it, from a load generator in a JVM of its own (a
 * closed loop of {@code concurrency} clients, each polling its payment until final), after a
 * warm-up reported apart; then, in the same run and on the same database, the in-process bench
 * warmed and measured for as long; and the ratio of the two rates. Before either leg, the engine
 * runs in process for the warm-up's length, so that both legs measure this JVM's engine, store and
 * driver compiled. The simulated wallet and business run in a JVM of their own ({@link SimJvm}), as
 * a deployment's wallet and business run apart from it, so that the CPU per payment is the service
 * JVM's own (this one) over the measured time only; the simulators' CPU per payment and the
 * in-process leg's (engine and its in-process simulators) are printed beside it.
 */
public final class ApiBench {
  private ApiBench() {}

  /**
   * Options of {@code bench api}; {@code jfr}, when not null, is the file a flight recording of the
   * service JVM over the warm-up and the measured time is written to.
   */
  public record Options(
      double durationSec,
      int concurrency,
      double warmupSec,
      String jdbcUrl,
      boolean json,
      java.nio.file.Path jfr) {
    public Options {
      if (durationSec <= 0 || warmupSec < 0 || concurrency < 1 || concurrency > 256) {
        throw new IllegalArgumentException(
            "--duration > 0, --warmup >= 0, --concurrency within [1, 256]");
      }
    }
  }

  public static int run(Options o, PrintStream out, PrintStream err) {
    try (ApiService service = ApiService.startWithOwnSimulators(o.jdbcUrl(), err)) {
      err.printf(
          Locale.ROOT,
          "bench api: %d clients, warm-up %.0f s, measured %.0f s%n",
          o.concurrency(),
          o.warmupSec(),
          o.durationSec());
      // The engine, the store and the driver are this JVM's code for both legs. Warmed in process
      // first, so that neither leg measures them cold: the API leg would otherwise run in a cold
      // JVM and the in-process leg in the one the API leg had warmed.
      PaymentBench inProcessBench = new PaymentBench(service.database(), o.concurrency());
      err.printf(Locale.ROOT, "bench api: the engine in process first, %.0f s%n", o.warmupSec());
      inProcessBench.warm(o.warmupSec());
      // The service's CPU time, then the simulators', at the end of the warm-up and of the measure.
      long[] cpu = new long[6];
      // Started before the load: starting a recording can take seconds on a loaded machine.
      ServiceProfile profile = new ServiceProfile(o.jfr());
      profile.start();
      JsonNode load =
          LoadProcess.run(
              service.base(),
              service.merchantKey(),
              new ApiLoad.Plan(o.concurrency(), 0, o.warmupSec(), o.durationSec(), 0),
              new LoadProcess.Marks() {
                @Override
                public void warmupDone() {
                  cpu[0] = ServiceJvm.cpuNanos();
                  cpu[2] = service.simulators().cpuNanos();
                  cpu[4] = ServiceJvm.compilerCpuNanos();
                }

                @Override
                public void measureDone() {
                  cpu[1] = ServiceJvm.cpuNanos();
                  cpu[3] = service.simulators().cpuNanos();
                  cpu[5] = ServiceJvm.compilerCpuNanos();
                  profile.stop();
                }
              });
      service.stopService();
      err.printf("bench api: the in-process bench, warmed and measured as long%n");
      PaymentBench.Timed inProcess = inProcessBench.runFor(o.warmupSec(), o.durationSec());
      Map<String, Object> json = json(o, load, cpu, inProcess);
      print(load.get("warmup"), json, out);
      if (o.json()) {
        out.println(BenchJson.line(json));
      }
      int ended =
          load.get("measured").get("payments").intValue()
              + load.get("warmup").get("payments").intValue();
      return ended > 0 ? 0 : 1;
    }
  }

  private static Map<String, Object> json(
      Options o, JsonNode load, long[] cpu, PaymentBench.Timed timed) {
    JsonNode m = load.get("measured");
    double api = m.get("paymentsPerSec").doubleValue();
    int payments = m.get("payments").intValue();
    PaymentBench.Result inProcess = timed.result();
    double cpuMs = perPayment(cpu[0], cpu[1], payments);
    double simCpuMs = perPayment(cpu[2], cpu[3], payments);
    double jitCpuMs = perPayment(cpu[4], cpu[5], payments);
    double inProcessCpuMs = perPayment(0, timed.cpuNanos(), inProcess.converged());
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("apiPaymentsPerSec", BenchJson.fixed(api, 2));
    json.put("postP50Ms", BenchJson.fixed(m.get("postP50Ms").doubleValue(), 3));
    json.put("postP99Ms", BenchJson.fixed(m.get("postP99Ms").doubleValue(), 3));
    json.put("terminalP50Ms", BenchJson.fixed(m.get("terminalP50Ms").doubleValue(), 3));
    json.put("terminalP99Ms", BenchJson.fixed(m.get("terminalP99Ms").doubleValue(), 3));
    json.put("cpuMsPerPayment", BenchJson.fixed(cpuMs, 3));
    json.put("inProcessPaymentsPerSec", BenchJson.fixed(inProcess.paymentsPerSec(), 2));
    json.put("inProcessP99Ms", BenchJson.fixed(inProcess.p99Micros() / 1e3, 3));
    json.put("apiRatio", BenchJson.fixed(api / inProcess.paymentsPerSec(), 3));
    json.put("simCpuMsPerPayment", BenchJson.fixed(simCpuMs, 3));
    json.put("jitCpuMsPerPayment", BenchJson.fixed(jitCpuMs, 3));
    json.put("inProcessCpuMsPerPayment", BenchJson.fixed(inProcessCpuMs, 3));
    json.put("getsPerPayment", BenchJson.fixed(m.get("getsPerPayment").doubleValue(), 3));
    json.put("simulators", "own JVM");
    json.put("concurrency", o.concurrency());
    json.put("durationSec", BenchJson.fixed(o.durationSec(), 1));
    json.put("payments", payments);
    json.put("failed", m.get("failed").intValue());
    json.put("inProcessPayments", inProcess.converged());
    JsonNode w = load.get("warmup");
    json.put("warmupPayments", w.get("payments").intValue());
    json.put("warmupPaymentsPerSec", BenchJson.fixed(w.get("paymentsPerSec").doubleValue(), 3));
    json.put("warmupPostP99Ms", BenchJson.fixed(w.get("postP99Ms").doubleValue(), 3));
    return json;
  }

  /** Nanoseconds between two readings per payment, in milliseconds; NaN if either is unknown. */
  private static double perPayment(long from, long to, int payments) {
    return from < 0 || to < 0 || payments == 0 ? Double.NaN : (to - from) / 1e6 / payments;
  }

  private static void print(JsonNode warmup, Map<String, Object> j, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "warm-up             %s payments/s, POST p99 %s ms%n",
        BenchJson.fixed(warmup.get("paymentsPerSec").doubleValue(), 2),
        BenchJson.fixed(warmup.get("postP99Ms").doubleValue(), 2));
    out.printf(
        Locale.ROOT,
        "api payments/s      %s (%s payments, %s failed)%n",
        j.get("apiPaymentsPerSec"),
        j.get("payments"),
        j.get("failed"));
    out.printf(
        Locale.ROOT, "POST p50 / p99      %s ms / %s ms%n", j.get("postP50Ms"), j.get("postP99Ms"));
    out.printf(
        Locale.ROOT, "GETs per payment    %s (polls after the POST)%n", j.get("getsPerPayment"));
    out.printf(
        Locale.ROOT,
        "terminal p50 / p99  %s ms / %s ms%n",
        j.get("terminalP50Ms"),
        j.get("terminalP99Ms"));
    out.printf(
        Locale.ROOT,
        "service CPU         %s ms/payment, of it the JIT compilers %s (simulators' JVM %s"
            + " ms/payment)%n",
        j.get("cpuMsPerPayment"),
        j.get("jitCpuMsPerPayment"),
        j.get("simCpuMsPerPayment"));
    out.printf(
        Locale.ROOT,
        "in-process          %s payments/s, p99 %s ms, CPU %s ms/payment%n",
        j.get("inProcessPaymentsPerSec"),
        j.get("inProcessP99Ms"),
        j.get("inProcessCpuMsPerPayment"));
    out.printf(Locale.ROOT, "apiRatio            %s%n", j.get("apiRatio"));
  }
}
