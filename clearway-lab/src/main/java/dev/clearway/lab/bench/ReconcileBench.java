package dev.clearway.lab.bench;

import dev.clearway.core.statement.Statement;
import dev.clearway.core.statement.StatementFileRecord;
import dev.clearway.core.statement.StatementFormat;
import dev.clearway.core.statement.StatementImporter;
import dev.clearway.psp.stripe.StripeBalanceReportParser;
import dev.clearway.psp.wechat.WechatTradeBillParser;
import dev.clearway.store.Database;
import dev.clearway.store.statement.JdbcStatementStore;
import dev.clearway.store.statement.WalletCsvParser;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code clearway bench reconcile}: imports and reconciles one account-day whose statement has
 * {@code lines} lines against as many local payments, and measures in the same run the database's
 * own floor for the same work: {@code COPY} of the file into a bare table plus one join against the
 * flows. Prints both times, their ratio and the JVM's peak heap during the import and the run (the
 * heap pools' peak counters, reset before the import: an upper bound counting garbage not yet
 * collected; run with {@code -Xmx512m} to hold the run to that heap). Exit 0 when the run found
 * exactly the planted differences, 1 otherwise.
 */
public final class ReconcileBench {
  private ReconcileBench() {}

  /** Options of the command; {@code jdbcUrl} null for an embedded PostgreSQL. */
  public record Options(int lines, String jdbcUrl, boolean json) {}

  /** The timed import and reconciliation. */
  record Timed(
      long importMs,
      long reconcileMs,
      long peakHeapBytes,
      long fileLines,
      ReconBenchRun.Found found,
      Map<String, Long> phaseMs) {}

  /**
   * The pool's limits for the bench: its few statements over a whole account-day run far longer
   * than any of the engine's single-row writes, the more so on a shared machine, and the bench
   * measures how long they take rather than cutting them off.
   */
  private static final Database.Timeouts TIMEOUTS =
      new Database.Timeouts(Duration.ofMinutes(15), Duration.ofMinutes(16));

  public static int run(Options o, PrintStream out, PrintStream err) {
    String runId = Long.toString(System.currentTimeMillis(), 36);
    LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(7);
    ReconBenchPlan plan = ReconBenchPlan.of(o.lines(), day, runId);
    Path file = null;
    try (Database db =
        o.jdbcUrl() == null
            ? Database.embedded(4, TIMEOUTS)
            : Database.connect(o.jdbcUrl(), 4, TIMEOUTS)) {
      file = Files.createTempFile("clearway-recon-bench-", ".csv");
      err.printf("bench reconcile: %,d local payments and statement lines%n", o.lines());
      ReconBenchData.insertLocal(db.jdbcUrl(), plan);
      ReconBenchData.writeStatement(file, plan);
      err.printf("bench reconcile: import and reconciliation of %s%n", file.getFileName());
      Timed timed = timed(db, plan, file);
      err.println("bench reconcile: baseline COPY and join");
      ReconBaseline.Result baseline = ReconBaseline.run(db.jdbcUrl(), file);
      return report(plan, timed, baseline, db.synchronousCommit(), o.json(), out);
    } catch (IOException e) {
      throw new UncheckedIOException("bench reconcile", e);
    } catch (SQLException e) {
      throw new IllegalStateException("bench reconcile", e);
    } finally {
      deleteQuietly(file);
    }
  }

  private static Timed timed(Database db, ReconBenchPlan plan, Path file) throws IOException {
    System.gc();
    HeapPeak heap = HeapPeak.start();
    ReconPhases phases = new ReconPhases();
    long t0 = System.nanoTime();
    StatementImporter importer =
        new StatementImporter(
            new TimedStatementStore(
                new JdbcStatementStore(db.dataSource(), Clock.systemUTC()), phases),
            Map.of(
                StatementFormat.WALLET_CSV, new WalletCsvParser(),
                StatementFormat.STRIPE_BALANCE, new StripeBalanceReportParser(),
                StatementFormat.WECHAT_TRADEBILL, new WechatTradeBillParser()));
    StatementFileRecord record =
        importer.importStatement(
            plan.account(),
            plan.day(),
            Statement.unhashed(StatementFormat.WALLET_CSV, Files.readAllBytes(file)));
    if (record.status() != StatementFileRecord.Status.IMPORTED) {
      throw new IllegalStateException("the bench statement was refused: " + record.refusedReason());
    }
    long t1 = System.nanoTime();
    ReconBenchRun.Found found = ReconBenchRun.reconcile(db, plan, phases);
    long t2 = System.nanoTime();
    phases.remainder(ReconPhases.MATCH, t2 - t0);
    return new Timed(
        (t1 - t0) / 1_000_000,
        (t2 - t1) / 1_000_000,
        heap.peakBytes(),
        record.lineCount(),
        found,
        phases.millis());
  }

  private static int report(
      ReconBenchPlan plan,
      Timed t,
      ReconBaseline.Result baseline,
      String synchronousCommit,
      boolean json,
      PrintStream out) {
    long total = t.importMs() + t.reconcileMs();
    double ratio = (double) total / Math.max(1, baseline.millis());
    double heapMiB = t.peakHeapBytes() / (1024.0 * 1024.0);
    double maxMiB = HeapPeak.maxBytes() / (1024.0 * 1024.0);
    boolean allFound = t.found().matches(plan.planted());
    out.printf(
        Locale.ROOT, "lines               %,d (%,d in the file)%n", plan.lines(), t.fileLines());
    out.printf(Locale.ROOT, "import              %,d ms%n", t.importMs());
    out.printf(Locale.ROOT, "reconcile           %,d ms%n", t.reconcileMs());
    out.printf(Locale.ROOT, "phases (ms)         %s%n", t.phaseMs());
    out.printf(Locale.ROOT, "total               %,d ms%n", total);
    out.printf(
        Locale.ROOT,
        "baseline            %,d ms (COPY %,d lines + join: %,d differing)%n",
        baseline.millis(),
        baseline.copied(),
        baseline.differing());
    out.printf(Locale.ROOT, "ratio               %.2f (target <= 3)%n", ratio);
    out.printf(
        Locale.ROOT,
        "peak heap           %.1f MiB of %.0f MiB max (target < 512)%n",
        heapMiB,
        maxMiB);
    out.printf(
        Locale.ROOT,
        "differences         %,d found %s, %,d planted %s%n",
        t.found().total(),
        t.found().byClass(),
        plan.plantedTotal(),
        plan.planted());
    out.println("synchronous_commit  " + synchronousCommit);
    if (json) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("importMs", t.importMs());
      fields.put("reconcileMs", t.reconcileMs());
      fields.put("totalMs", total);
      fields.put("baselineMs", baseline.millis());
      fields.put("ratio", BenchJson.fixed(ratio, 3));
      fields.put("peakHeapMiB", BenchJson.fixed(heapMiB, 1));
      fields.put("maxHeapMiB", BenchJson.fixed(maxMiB, 0));
      fields.put("lines", plan.lines());
      fields.put("differences", t.found().total());
      fields.put("planted", plan.planted());
      fields.put("found", t.found().byClass());
      fields.put("baselineDiffering", baseline.differing());
      fields.put("synchronousCommit", synchronousCommit);
      t.phaseMs().forEach((phase, ms) -> fields.put(phase + "Ms", ms));
      out.println(BenchJson.line(fields));
    }
    return allFound ? 0 : 1;
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a temporary file left behind is harmless
    }
  }
}
