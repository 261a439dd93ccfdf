package dev.clearway.core.modelcheck;

import static org.assertj.core.api.Assertions.fail;

import dev.clearway.core.modelcheck.Explorer.Model;
import dev.clearway.core.modelcheck.Explorer.Report;

/**
 * Runs an exploration for a test: prints the number of distinct states (and the trace of a
 * violation), and asserts a proof. {@code -Dmodelcheck.extraDepth=N} explores N steps deeper than
 * the build does (for a longer run by hand).
 */
public final class ModelChecks {
  private static final int EXTRA_DEPTH = Integer.getInteger("modelcheck.extraDepth", 0);
  private static final int MAX_STATES = 4_000_000;

  private ModelChecks() {}

  public static <S> Report explore(Model<S> model, int depth) {
    long started = System.nanoTime();
    Report report = Explorer.explore(model, depth + EXTRA_DEPTH, MAX_STATES);
    System.out.printf(
        "model check: %s in %d ms%n", report.summary(), (System.nanoTime() - started) / 1_000_000);
    if (report.violation() != null) {
      System.out.print(report.violation().render());
    }
    return report;
  }

  /** Fails with the shortest trace if an invariant broke, or if the state limit cut it short. */
  public static void assertHolds(Report report) {
    if (report.violation() != null) {
      fail(report.machine() + ": " + report.violation().render());
    }
    if (!report.complete()) {
      fail(report.machine() + ": more than " + MAX_STATES + " states; lower the depth");
    }
  }
}
