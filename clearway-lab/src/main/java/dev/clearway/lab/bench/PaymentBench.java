package dev.clearway.lab.bench;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.lab.Parallel;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.Database;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Drives payments end to end (create, pay, business, terminal) through the production advancer and
 * store, against a wallet and a business service that answer at once, and counts the commits
 * PostgreSQL saw.
 */
final class PaymentBench {
  private static final int WARMUP = 500;

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
    SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
    SimBusiness business = new SimBusiness(FaultPlan.none(), clock);
    try (EngineAssembly engine =
        new EngineAssembly(
            db.flowStore(),
            wallet,
            business,
            EngineEvents.NONE,
            EngineConfig.production(),
            clock,
            "bench",
            concurrency,
            UnaryOperator.identity())) {
      engine.start();
      drive(engine, "warmup", Math.min(WARMUP, payments));
      CommitCounter commits = new CommitCounter(db);
      long before = commits.settled();
      long t0 = System.nanoTime();
      long[] latencies = drive(engine, "run", payments);
      double seconds = (System.nanoTime() - t0) / 1e9;
      long after = commits.settled();
      int converged = (int) Arrays.stream(latencies).filter(l -> l >= 0).count();
      long[] ok = Arrays.stream(latencies).filter(l -> l >= 0).sorted().toArray();
      return new Result(
          payments, converged, seconds, after - before, percentile(ok, 0.50), percentile(ok, 0.99));
    }
  }

  /** Returns each payment's create-to-terminal latency in microseconds, or -1 if not terminal. */
  private long[] drive(EngineAssembly engine, String tag, int payments) {
    long[] latencies = new long[payments];
    AtomicInteger next = new AtomicInteger();
    Parallel.run(
        concurrency,
        "bench",
        t -> {
          int i;
          while ((i = next.getAndIncrement()) < payments) {
            GoalKey goal = GoalKey.ofDefaultMerchant(1 + i % 10_000, "bench", tag + ":" + i);
            NewPayment p =
                new NewPayment(
                    goal, 100 + i % 1000, "CNY", clock.instant().plus(Duration.ofHours(1)));
            long s = System.nanoTime();
            AdvanceResult r = engine.payments().start(p).result();
            latencies[i] =
                r.outcome() == AdvanceResult.Outcome.TERMINAL
                    ? (System.nanoTime() - s) / 1_000
                    : -1;
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
