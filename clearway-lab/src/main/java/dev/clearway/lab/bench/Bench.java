package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code clearway bench}: payments per second end to end, commits per converged payment (from
 * PostgreSQL's statistics), create-to-terminal latency, the same run's single-row UPDATE baseline,
 * their efficiency ratio, and the scanner round time at two table sizes.
 */
public final class Bench {
  private Bench() {}

  public static int run(BenchOptions o, PrintStream out, PrintStream err) {
    int pool = o.concurrency() + 4;
    try (Database db =
        o.jdbcUrl() == null ? Database.embedded(pool) : Database.connect(o.jdbcUrl(), pool)) {
      err.printf("bench: %,d payments at concurrency %d%n", o.payments(), o.concurrency());
      PaymentBench.Result p = new PaymentBench(db, o.concurrency()).run(o.payments());
      err.printf("bench: baseline single-row UPDATEs at concurrency %d%n", o.concurrency());
      double baseline =
          new BaselineBench(db.dataSource(), o.concurrency()).run(Math.max(5, p.seconds()));
      double efficiency = p.paymentsPerSec() * p.commitsPerPayment() / baseline;
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
      String scanner = "";
      if (!o.skipScanner()) {
        int small = Math.max(100, o.scannerTerminalRows() / 100);
        err.printf(
            "bench: scanner round, %,d due among %,d terminal rows%n", ScannerBench.DUE, small);
        ScannerBench.Result s = new ScannerBench(db).run(small);
        err.printf(
            "bench: scanner round, %,d due among %,d terminal rows%n",
            ScannerBench.DUE, o.scannerTerminalRows());
        ScannerBench.Result l = new ScannerBench(db).run(o.scannerTerminalRows());
        double ratio = l.medianMillis() / s.medianMillis();
        out.printf(
            Locale.ROOT,
            "scanner round       %.2f ms (%,d terminal) / %.2f ms (%,d terminal), ratio %.2f%n",
            s.medianMillis(),
            s.terminalRows(),
            l.medianMillis(),
            l.terminalRows(),
            ratio);
        scanner =
            String.format(
                Locale.ROOT,
                ",\"scannerSmallMs\":%.3f,\"scannerLargeMs\":%.3f,\"scannerSmallRows\":%d,"
                    + "\"scannerLargeRows\":%d,\"scannerRatio\":%.3f",
                s.medianMillis(),
                l.medianMillis(),
                s.terminalRows(),
                l.terminalRows(),
                ratio);
      }
      if (o.json()) {
        out.printf(
            Locale.ROOT,
            "{\"payments\":%d,\"converged\":%d,\"concurrency\":%d,\"paymentsPerSec\":%.2f,"
                + "\"commitsPerPayment\":%.3f,\"baselineCommitsPerSec\":%.2f,\"efficiency\":%.4f,"
                + "\"p50Ms\":%.3f,\"p99Ms\":%.3f%s}%n",
            p.payments(),
            p.converged(),
            o.concurrency(),
            p.paymentsPerSec(),
            p.commitsPerPayment(),
            baseline,
            efficiency,
            p.p50Micros() / 1e3,
            p.p99Micros() / 1e3,
            scanner);
      }
      return p.converged() == p.payments() ? 0 : 1;
    }
  }
}
