package dev.clearway.lab.bench;

import dev.clearway.store.Database;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code clearway bench sharded}: the payment bench on plain MariaDB and on the sharded URL
 * (ShardingSphere-JDBC over the shipped layout's databases) in one run, in alternating windows so
 * that both see the same machine (after one window a side not counted), with the sharded run's
 * statements counted: logical statements per payment, the physical statements each ran as (shards
 * per statement) and the statements that reached more than one shard. Creates its own databases and
 * drops them at the end ({@link ShardedBenchDatabases}).
 */
public final class ShardedBench {

  /**
   * @param payments measured payments per side, split over the windows
   * @param concurrency client threads, also the engine's workers
   * @param windows windows per side, alternating unsharded and sharded
   * @param layout the ShardingSphere YAML whose layout is benched
   * @param json print one JSON object as the last stdout line
   */
  public record Options(int payments, int concurrency, int windows, Path layout, boolean json) {
    public Options {
      if (payments < 1 || concurrency < 1 || concurrency > 128 || windows < 1) {
        throw new IllegalArgumentException(
            "--payments >= 1, --concurrency within [1, 128], --windows >= 1");
      }
    }
  }

  /** One side's windows added up. */
  private static final class Side {
    int payments;
    int converged;
    double seconds;
    long commits;
    long p99Micros;
    long statements;
    long routes;
    long broadcasts;
    long scanStatements;
    long scanBroadcasts;
    long physical;
    long physicalCommits;
    long cpuNanos;

    void add(PaymentBench.Routed window) {
      PaymentBench.Result r = window.result();
      payments += r.payments();
      converged += r.converged();
      seconds += r.seconds();
      commits += r.commits();
      p99Micros = Math.max(p99Micros, r.p99Micros());
      StatementRoutes.Counts c = window.statements();
      statements += c.paymentStatements();
      routes += c.paymentRoutes();
      broadcasts += c.paymentBroadcasts();
      scanStatements += c.scanStatements();
      scanBroadcasts += c.scanBroadcasts();
      physical += c.physical();
      physicalCommits += c.physicalCommits();
      cpuNanos += c.cpuNanos();
    }

    double paymentsPerSec() {
      return converged / seconds;
    }

    double perPayment(long count) {
      return (double) count / converged;
    }
  }

  private ShardedBench() {}

  public static int run(Options o, PrintStream out, PrintStream err) {
    int pool = o.concurrency() + 4;
    int perWindow = Math.max(1, o.payments() / o.windows());
    Side unsharded = new Side();
    Side sharded = new Side();
    // A ShardingSphere connection keeps the physical connection of every database it has used
    // until it is closed, and up to `pool` of them are open at once: each physical pool needs as
    // many connections, or logical connections wait for a physical one.
    try (ShardedBenchDatabases dbs = ShardedBenchDatabases.create(o.layout(), pool)) {
      err.printf("bench sharded: databases %s%n", dbs.databases());
      try (Database plain = Database.connect(dbs.unshardedUrl(), pool);
          Database shards = Database.connect(dbs.shardedUrl(), pool)) {
        // ShardingSphere's code runs cold at first (its first window was the slowest of every
        // run); one window a side, not counted, before the measured ones.
        err.printf("bench sharded: warm-up window, %,d payments each, not counted%n", perWindow);
        new PaymentBench(plain, o.concurrency()).run(perWindow);
        new PaymentBench(shards, o.concurrency()).run(perWindow);
        for (int w = 1; w <= o.windows(); w++) {
          err.printf("bench sharded: window %d/%d, %,d payments each%n", w, o.windows(), perWindow);
          window("unsharded", plain, o, perWindow, unsharded, out);
          window("sharded", shards, o, perWindow, sharded, out);
        }
      }
    }
    Map<String, Object> json = report(o, unsharded, sharded, out);
    if (o.json()) {
      out.println(BenchJson.line(json));
    }
    boolean converged =
        unsharded.converged == unsharded.payments && sharded.converged == sharded.payments;
    return converged && sharded.broadcasts == 0 ? 0 : 1;
  }

  private static void window(
      String name, Database db, Options o, int payments, Side side, PrintStream out) {
    PaymentBench.Routed r = new PaymentBench(db, o.concurrency()).runRouted(payments);
    side.add(r);
    out.printf(
        Locale.ROOT,
        "%-10s %,d payments  %.1f payments/s  %.2f statements/payment%n",
        name,
        r.result().converged(),
        r.result().paymentsPerSec(),
        (double) r.statements().paymentStatements() / r.result().converged());
  }

  private static Map<String, Object> report(
      Options o, Side unsharded, Side sharded, PrintStream out) {
    double overhead = unsharded.paymentsPerSec() / sharded.paymentsPerSec();
    double shardsPerStatement = (double) sharded.routes / sharded.statements;
    out.printf(
        Locale.ROOT,
        "payments/s          %.1f unsharded / %.1f sharded, overhead %.3fx%n",
        unsharded.paymentsPerSec(),
        sharded.paymentsPerSec(),
        overhead);
    out.printf(
        Locale.ROOT,
        "commits/payment     %.2f unsharded / %.2f sharded%n",
        unsharded.perPayment(unsharded.commits),
        sharded.perPayment(sharded.commits));
    out.printf(
        Locale.ROOT,
        "JVM CPU ms/payment  %.2f unsharded / %.2f sharded%n",
        unsharded.cpuNanos / 1e6 / unsharded.converged,
        sharded.cpuNanos / 1e6 / sharded.converged);
    out.printf(
        Locale.ROOT,
        "statements/payment  %.2f unsharded / %.2f sharded, %.3f shards per statement,"
            + " %d broadcasts (scanner: %d statements, %d broadcasts)%n",
        unsharded.perPayment(unsharded.statements),
        sharded.perPayment(sharded.statements),
        shardsPerStatement,
        sharded.broadcasts,
        sharded.scanStatements,
        sharded.scanBroadcasts);
    return json(o, unsharded, sharded, overhead, shardsPerStatement);
  }

  private static Map<String, Object> json(
      Options o, Side unsharded, Side sharded, double overhead, double shardsPerStatement) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("payments", sharded.payments);
    json.put("unshardedConverged", unsharded.converged);
    json.put("shardedConverged", sharded.converged);
    json.put("concurrency", o.concurrency());
    json.put("windows", o.windows());
    json.put("unshardedPaymentsPerSec", BenchJson.fixed(unsharded.paymentsPerSec(), 2));
    json.put("shardedPaymentsPerSec", BenchJson.fixed(sharded.paymentsPerSec(), 2));
    json.put("shardingOverhead", BenchJson.fixed(overhead, 3));
    json.put(
        "unshardedCommitsPerPayment", BenchJson.fixed(unsharded.perPayment(unsharded.commits), 3));
    json.put("shardedCommitsPerPayment", BenchJson.fixed(sharded.perPayment(sharded.commits), 3));
    json.put(
        "unshardedStatementsPerPayment",
        BenchJson.fixed(unsharded.perPayment(unsharded.statements), 3));
    json.put("statementsPerPayment", BenchJson.fixed(sharded.perPayment(sharded.statements), 3));
    json.put("shardsPerStatement", BenchJson.fixed(shardsPerStatement, 4));
    json.put("broadcasts", sharded.broadcasts);
    json.put(
        "physicalStatementsPerPayment", BenchJson.fixed(sharded.perPayment(sharded.physical), 3));
    json.put(
        "shardedPhysicalCommitsPerPayment",
        BenchJson.fixed(sharded.perPayment(sharded.physicalCommits), 3));
    json.put(
        "unshardedCpuMsPerPayment",
        BenchJson.fixed(unsharded.cpuNanos / 1e6 / unsharded.converged, 3));
    json.put(
        "shardedCpuMsPerPayment", BenchJson.fixed(sharded.cpuNanos / 1e6 / sharded.converged, 3));
    json.put("scanStatements", sharded.scanStatements);
    json.put("scanBroadcasts", sharded.scanBroadcasts);
    json.put("unshardedP99Ms", BenchJson.fixed(unsharded.p99Micros / 1e3, 3));
    json.put("shardedP99Ms", BenchJson.fixed(sharded.p99Micros / 1e3, 3));
    return json;
  }
}
