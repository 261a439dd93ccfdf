package dev.clearway.app;

import dev.clearway.app.chaos.ChaosOptions;
import dev.clearway.app.chaos.ChaosRun;
import dev.clearway.app.chaos.Verdict;
import java.io.PrintStream;
import java.util.Map;

/**
 * The main job for now: a chaos run of a few thousand payments on embedded PostgreSQL, with live
 * progress and a final table of flows by status, the invariants and the time taken.
 */
final class Demo {
  private Demo() {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    ChaosOptions options = ChaosOptions.parse(args, 3_000);
    out.printf(
        "Clearway demo: %,d payments, fault rate %.2f, seed %d, on %s PostgreSQL%n",
        options.payments(),
        options.faultRate(),
        options.seed(),
        options.jdbcUrl() == null ? "embedded" : "external");
    out.println("Every fault kind is injected: lost responses, timeouts, 5xx, PROCESSING,");
    out.println("rejections, business never completing, refunds failing, crashed workers,");
    out.println("lost/duplicated/delayed wake-ups. Watch every flow reach an explainable end.");
    out.println();
    ChaosRun.Report report = new ChaosRun(options, out).run();
    Verdict v = report.verdict();
    out.println();
    out.println("+----------------------------+-----------+");
    out.println("| flows by status            |     count |");
    out.println("+----------------------------+-----------+");
    for (Map.Entry<String, Integer> e : v.byStatus().entrySet()) {
      out.printf("| %-26s | %,9d |%n", e.getKey(), e.getValue());
    }
    out.printf("| %-26s | %,9d |%n", "in manual review", v.manualReview());
    out.println("+----------------------------+-----------+");
    out.println("| invariant (violations)     |     count |");
    out.println("+----------------------------+-----------+");
    for (Map.Entry<String, Integer> e : v.violations().entrySet()) {
      out.printf("| %-26s | %,9d |%n", e.getKey(), e.getValue());
    }
    out.println("+----------------------------+-----------+");
    out.printf(
        "converged %,d of %,d in %.1f s: %s%n",
        v.converged(), v.payments(), v.wallClockMs() / 1000.0, v.passed() ? "PASS" : "FAIL");
    out.println("faults: " + report.faultSummary());
    report.examples().forEach(e -> out.println("violation: " + e));
    out.println(v.toJson());
    return v.passed() ? 0 : 1;
  }
}
