package dev.clearway.lab.bench;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.lab.Parallel;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.Database;
import dev.clearway.store.JdbcFlowStore;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * Drives payments end to end (create, pay, business, terminal) through the production advancer and
 * store, against a wallet and a business service that answer at once, and counts the commits the
 * database saw (how is the {@link BenchDatabase}'s).
 */
final class PaymentBench {
  private static final int WARMUP = 500;
  static final String MEASURED_START = "bench: measured payments start";
  static final String MEASURED_END = "bench: measured payments end";

  record Result(
      int payments, int converged, double seconds, long commits, long p50Micros, long p99Micros) {
    double paymentsPerSec() {
      return converged / seconds;
    }

    double commitsPerPayment() {
      return (double) commits / converged;
    }
  }

  private final Database db;
  private final int concurrency;
  private final Clock clock = Clock.systemUTC();

  PaymentBench(Database db, int concurrency) {
    this.db = db;
    this.concurrency = concurrency;
  }

  Result run(int payments) {
    return run(payments, null, 0, null).result();
  }

  /**
   * {@link #run(int)} after {@code warmupSec} seconds of untimed payments in the same engine (0:
   * the 500 untimed payments only); prints {@value #MEASURED_START} and {@value #MEASURED_END} to
   * {@code marks} around the measured payments, so that a caller reading them can take the database
   * server's and this JVM's CPU over exactly that window.
   */
  Result run(int payments, double warmupSec, PrintStream marks) {
    return run(payments, null, warmupSec, marks).result();
  }

  /**
   * A result with the statements of its measured payments and the physical statements they ran as
   * ({@link StatementRoutes#PROCESS}, its window open over the measured payments only).
   */
  record Routed(Result result, StatementRoutes.Counts statements) {}

  /** {@link #run(int)} with its statements counted. */
  Routed runRouted(int payments) {
    return run(payments, StatementRoutes.PROCESS, 0, null);
  }

  private Routed run(int payments, StatementRoutes routes, double warmupSec, PrintStream marks) {
    BenchDatabase.CommitMeter commits = BenchDatabase.of(db).commitMeter();
    DataSource ds = routes == null ? commits.dataSource() : routes.logical(commits.dataSource());
    try (EngineAssembly engine = engine(new JdbcFlowStore(ds, db.dialect()))) {
      engine.start();
      // Goal keys of their own, so that runs on one database start new payments each time.
      String run = Long.toString(System.nanoTime(), 36);
      drive(engine, run + ":warmup", Math.min(WARMUP, payments));
      if (warmupSec > 0) {
        timed(engine, run + ":warmup-timed", warmupSec);
      }
      long before = commits.settled();
      if (routes != null) {
        routes.open();
      }
      mark(marks, MEASURED_START);
      long t0 = System.nanoTime();
      long[] latencies = drive(engine, run + ":run", payments);
      double seconds = (System.nanoTime() - t0) / 1e9;
      mark(marks, MEASURED_END);
      if (marks != null) {
        // The engine and its connections stay open a moment after the mark: a reader summing the
        // server's CPU would lose the ticks of backends that exit before their server reaps them.
        pause(500);
      }
      StatementRoutes.Counts counted = routes == null ? null : routes.close();
      long after = commits.settled();
      int converged = (int) Arrays.stream(latencies).filter(l -> l >= 0).count();
      long[] ok = Arrays.stream(latencies).filter(l -> l >= 0).sorted().toArray();
      Result result =
          new Result(
              payments,
              converged,
              seconds,
              after - before,
              percentile(ok, 0.50),
              percentile(ok, 0.99));
      return new Routed(result, counted);
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void mark(PrintStream marks, String line) {
    if (marks != null) {
      marks.println(line);
      marks.flush();
    }
  }

  /**
   * Payments for {@code seconds}, not measured: compiles the engine's, the store's and the driver's
   * code in this JVM, which the service running in it shares.
   */
  void warm(double seconds) {
    try (EngineAssembly engine = engine(db.flowStore())) {
      engine.start();
      timed(engine, Long.toString(System.nanoTime(), 36) + ":prewarm", seconds);
    }
  }

  /** A timed run's result and this JVM's CPU time over its measured seconds. */
  record Timed(Result result, long cpuNanos) {}

  /**
   * Payments for {@code warmupSec} seconds, then for {@code measureSec} seconds measured: the same
   * closed loop the API bench drives through HTTP. Commits are not counted (0).
   */
  Timed runFor(double warmupSec, double measureSec) {
    String run = Long.toString(System.nanoTime(), 36);
    try (EngineAssembly engine = engine(db.flowStore())) {
      engine.start();
      timed(engine, run + ":warmup", warmupSec);
      long cpu0 = ServiceJvm.cpuNanos();
      long t0 = System.nanoTime();
      long[] latencies = timed(engine, run + ":run", measureSec);
      double seconds = (System.nanoTime() - t0) / 1e9;
      long cpu = cpu0 < 0 ? -1 : ServiceJvm.cpuNanos() - cpu0;
      long[] ok = Arrays.stream(latencies).filter(l -> l >= 0).sorted().toArray();
      Result result =
          new Result(
              latencies.length, ok.length, seconds, 0, percentile(ok, 0.50), percentile(ok, 0.99));
      return new Timed(result, cpu);
    }
  }

  private EngineAssembly engine(FlowStore store) {
    return new EngineAssembly(
        store,
        new SimWallet(FaultPlan.none(), clock),
        new SimBusiness(FaultPlan.none(), clock),
        EngineEvents.NONE,
        EngineConfig.production(),
        clock,
        "bench",
        concurrency,
        UnaryOperator.identity());
  }

  /** Payments started until {@code seconds} have passed; latencies as in {@link #drive}. */
  private long[] timed(EngineAssembly engine, String tag, double seconds) {
    long end = System.nanoTime() + (long) (seconds * 1e9);
    AtomicInteger next = new AtomicInteger();
    Queue<Long> latencies = new ConcurrentLinkedQueue<>();
    Parallel.run(
        concurrency,
        "bench",
        t -> {
          while (System.nanoTime() < end) {
            latencies.add(pay(engine, tag, next.getAndIncrement()));
          }
        });
    return latencies.stream().mapToLong(Long::longValue).toArray();
  }

  private long pay(EngineAssembly engine, String tag, int i) {
    GoalKey goal = GoalKey.ofDefaultMerchant(1 + i % 10_000, "bench", tag + ":" + i);
    NewPayment p =
        new NewPayment(goal, 100 + i % 1000, "CNY", clock.instant().plus(Duration.ofHours(1)));
    long s = System.nanoTime();
    AdvanceResult r = engine.payments().start(p).result();
    return r.outcome() == AdvanceResult.Outcome.TERMINAL ? (System.nanoTime() - s) / 1_000 : -1;
  }

  /** Returns each payment's create-to-terminal latency in microseconds, or -1 if not terminal. */
  private long[] drive(EngineAssembly engine, String tag, int payments) {
    long[] latencies = new long[payments];
    // A payment whose client thread died with an exception stays not terminal.
    Arrays.fill(latencies, -1);
    AtomicInteger next = new AtomicInteger();
    Parallel.run(
        concurrency,
        "bench",
        t -> {
          int i;
          while ((i = next.getAndIncrement()) < payments) {
            latencies[i] = pay(engine, tag, i);
          }
        });
    return latencies;
  }

  static long percentile(long[] sorted, double q) {
    if (sorted.length == 0) {
      return 0;
    }
    int idx = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
    return sorted[Math.max(0, idx)];
  }
}
