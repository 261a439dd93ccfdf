package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code clearway bench}: payments per second end to end, commits per converged payment (from
 * PostgreSQL's statistics, or counted at the client on the MySQL family: {@link BenchDatabase}),
 * create-to-terminal latency, the same run's single-row UPDATE baseline, their efficiency ratio,
 * and the scanner round time at two table sizes.
 */
public final class Bench {
  private Bench() {}

  public static int run(BenchOptions o, PrintStream out, PrintStream err) {
    int pool = o.concurrency() + 4;
    try (Database db =
        o.jdbcUrl() == null ? Database.embedded(pool) : Database.connect(o.jdbcUrl(), pool)) {
      err.printf("bench: %,d payments at concurrency %d%n", o.payments(), o.concurrency());
      PaymentBench.Result p =
          new PaymentBench(db, o.concurrency()).run(o.payments(), o.warmupSec(), err);
      err.printf("bench: baseline single-row UPDATEs at concurrency %d%n", o.concurrency());
      double baseline =
          new BaselineBench(db.dataSource(), BenchDatabase.of(db), o.concurrency())
              .run(Math.max(5, p.seconds()));
      double efficiency = p.paymentsPerSec() * p.commitsPerPayment() / baseline;
      printPayments(p, baseline, efficiency, out);
      BenchDatabase.Durability durability = BenchDatabase.of(db).durability();
      out.println(durability.setting() + "  " + durability.value());
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("payments", p.payments());
      json.put("converged", p.converged());
      json.put("concurrency", o.concurrency());
      json.put("paymentsPerSec", BenchJson.fixed(p.paymentsPerSec(), 2));
      json.put("commitsPerPayment", BenchJson.fixed(p.commitsPerPayment(), 3));
      json.put("baselineCommitsPerSec", BenchJson.fixed(baseline, 2));
      json.put("efficiency", BenchJson.fixed(efficiency, 4));
      json.put("p50Ms", BenchJson.fixed(p.p50Micros() / 1e3, 3));
      json.put("p99Ms", BenchJson.fixed(p.p99Micros() / 1e3, 3));
      if (!o.skipScanner()) {
        json.putAll(scanner(db, o.scannerTerminalRows(), out, err));
      }
      json.put("synchronousCommit", durability.reported());
      if (o.json()) {
        out.println(BenchJson.line(json));
      }
      return p.converged() == p.payments() ? 0 : 1;
    }
  }

  private static void printPayments(
      PaymentBench.Result p, double baseline, double efficiency, PrintStream out) {
    out.printf(
        Locale.ROOT, "payments            %,d (%,d converged)%n", p.payments(), p.converged());
    out.printf(Locale.ROOT, "payments/s          %.1f%n", p.paymentsPerSec());
    out.printf(Locale.ROOT, "commits/payment     %.2f%n", p.commitsPerPayment());
    out.printf(
        Locale.ROOT,
        "latency p50 / p99   %.2f ms / %.2f ms%n",
        p.p50Micros() / 1e3,
        p.p99Micros() / 1e3);
    out.printf(Locale.ROOT, "baseline commits/s  %.1f%n", baseline);
    out.printf(Locale.ROOT, "efficiency          %.3f%n", efficiency);
  }

  /**
   * The scanner round at a hundredth of {@code terminalRows} and at {@code terminalRows}; prints
   * the line and returns the JSON fields.
   */
  private static Map<String, Object> scanner(
      Database db, int terminalRows, PrintStream out, PrintStream err) {
    int small = Math.max(100, terminalRows / 100);
    err.printf("bench: scanner round, %,d due among %,d terminal rows%n", ScannerBench.DUE, small);
    ScannerBench.Result s = new ScannerBench(db).run(small);
    err.printf(
        "bench: scanner round, %,d due among %,d terminal rows%n", ScannerBench.DUE, terminalRows);
    ScannerBench.Result l = new ScannerBench(db).run(terminalRows);
    double ratio = l.medianMillis() / s.medianMillis();
    out.printf(
        Locale.ROOT,
        "scanner round       %.2f ms (%,d terminal) / %.2f ms (%,d terminal), ratio %.2f%n",
        s.medianMillis(),
        s.terminalRows(),
        l.medianMillis(),
        l.terminalRows(),
        ratio);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("scannerSmallMs", BenchJson.fixed(s.medianMillis(), 3));
    json.put("scannerLargeMs", BenchJson.fixed(l.medianMillis(), 3));
    json.put("scannerSmallRows", s.terminalRows());
    json.put("scannerLargeRows", l.terminalRows());
    json.put("scannerRatio", BenchJson.fixed(ratio, 3));
    return json;
  }
}
