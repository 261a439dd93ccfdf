package dev.clearway.lab.cli;

import dev.clearway.lab.bench.ApiBench;
import dev.clearway.lab.bench.ArchiveBench;
import dev.clearway.lab.bench.Bench;
import dev.clearway.lab.bench.BenchOptions;
import dev.clearway.lab.bench.DrainBench;
import dev.clearway.lab.bench.ReconcileBench;
import dev.clearway.lab.bench.ShardedBench;
import dev.clearway.lab.bench.SoakBench;
import dev.clearway.lab.cluster.ClusterScaling;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code clearway bench} and its subcommands {@code drain}, {@code cluster}, {@code reconcile},
 * {@code archive}, {@code recovery}, {@code api}, {@code soak} and {@code sharded}.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Payments per second, commits per payment, latency and the scanner's cost.")
public final class BenchCommand implements Callable<Integer> {
  private final PrintStream out;
  private final PrintStream err;

  @Option(names = "--payments", defaultValue = "20000", description = "payments to drive")
  int payments;

  @Option(names = "--concurrency", defaultValue = "16", description = "client threads, 1 to 128")
  int concurrency;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description = "an existing PostgreSQL, MariaDB or MySQL")
  String jdbcUrl;

  @Option(names = "--json", description = "one JSON object as the last stdout line")
  boolean json;

  @Option(
      names = "--scanner-rows",
      defaultValue = "1000000",
      description = "the scanner benchmark's large table size (at least 100)")
  int scannerRows;

  @Option(names = "--no-scanner", description = "skip the scanner benchmark")
  boolean noScanner;

  @Option(
      names = "--warmup",
      defaultValue = "0",
      paramLabel = "SECONDS",
      description =
          "untimed payments for SECONDS before the measured ones, in the same engine"
              + " (0: 500 untimed payments)")
  double warmup;

  BenchCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** The command with its {@code drain} subcommand. */
  public static CommandLine line(PrintStream out, PrintStream err) {
    return new CommandLine(new BenchCommand(out, err))
        .addSubcommand(new Drain(out, err))
        .addSubcommand(new Cluster(out, err))
        .addSubcommand(new Reconcile(out, err))
        .addSubcommand(new Archive(out, err))
        .addSubcommand(new RecoveryBenchCommand(out, err))
        .addSubcommand(new Api(out, err))
        .addSubcommand(new Soak(out, err))
        .addSubcommand(new Sharded(out, err));
  }

  @Override
  public Integer call() {
    return Bench.run(
        new BenchOptions(payments, concurrency, jdbcUrl, json, scannerRows, noScanner, warmup),
        out,
        err);
  }

  /** {@code clearway bench drain}. */
  @Command(
      name = "drain",
      mixinStandardHelpOptions = true,
      description = "How fast the recovery worker drains an outage's backlog at a PSP's budget.")
  static final class Drain implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--backlog", defaultValue = "2000", description = "UNKNOWN attempts")
    int backlog;

    @Option(names = "--qps", defaultValue = "100", description = "the account's budget, 1 to 1000")
    int qps;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "an existing PostgreSQL")
    String jdbcUrl;

    @Option(names = "--json", description = "one JSON object as the last stdout line")
    boolean json;

    Drain(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      return DrainBench.run(new DrainBench.Options(backlog, qps, jdbcUrl, json), out, err);
    }
  }

  /** {@code clearway bench cluster}: payments per second through the API of 1, 2, 3 nodes. */
  @Command(
      name = "cluster",
      mixinStandardHelpOptions = true,
      description =
          "Throughput of 1, 2, 3... engine nodes (JVMs of their own) on one database, through"
              + " their APIs, in one run.")
  static final class Cluster implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(
        names = "--nodes-list",
        defaultValue = "1,2,3",
        split = ",",
        description = "node counts to measure, in order")
    List<Integer> nodesList;

    @Option(names = "--payments", defaultValue = "5000", description = "payments per node count")
    int payments;

    @Option(names = "--concurrency", defaultValue = "32", description = "client requests in flight")
    int concurrency;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "an existing PostgreSQL")
    String jdbcUrl;

    Cluster(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      return ClusterScaling.run(
          new ClusterScaling.Options(nodesList, payments, concurrency, jdbcUrl), out, err);
    }
  }

  /** {@code clearway bench reconcile}: one account-day of a million lines against its baseline. */
  @Command(
      name = "reconcile",
      mixinStandardHelpOptions = true,
      description =
          "Import and reconcile one statement against as many local payments, next to the same"
              + " run's baseline: COPY of the file plus one join against the flows.")
  static final class Reconcile implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--lines", defaultValue = "1000000", description = "statement lines, >= 1000")
    int lines;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "an existing PostgreSQL")
    String jdbcUrl;

    @Option(names = "--json", description = "one JSON object as the last stdout line")
    boolean json;

    Reconcile(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() {
      return ReconcileBench.run(new ReconcileBench.Options(lines, jdbcUrl, json), out, err);
    }
  }

  /** {@code clearway bench archive}: an empty archive against a large one, side by side. */
  @Command(
      name = "archive",
      mixinStandardHelpOptions = true,
      description =
          "The scanner round and payments/s with an empty archive and with --archived-rows"
              + " archived flows, same hot table and payments, and their ratio.")
  static final class Archive implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--archived-rows", defaultValue = "10000000", description = "archived flows")
    long archivedRows;

    @Option(names = "--hot-rows", defaultValue = "100000", description = "terminal rows kept hot")
    int hotRows;

    @Option(names = "--payments", defaultValue = "5000", description = "payments per leg")
    int payments;

    @Option(names = "--concurrency", defaultValue = "16", description = "client threads")
    int concurrency;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "an existing PostgreSQL")
    String jdbcUrl;

    @Option(names = "--json", description = "one JSON object as the last stdout line")
    boolean json;

    Archive(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() {
      return ArchiveBench.run(
          new ArchiveBench.Options(archivedRows, hotRows, payments, concurrency, jdbcUrl, json),
          out,
          err);
    }
  }

  /** {@code clearway bench api}: payments through the HTTP API next to the in-process engine. */
  @Command(
      name = "api",
      mixinStandardHelpOptions = true,
      description =
          "Payments through POST /v1/payments of the service (as serve starts it) from a load"
              + " generator JVM, then the in-process bench in the same run, and their ratio.")
  static final class Api implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--duration", defaultValue = "60", description = "measured seconds")
    double duration;

    @Option(names = "--concurrency", defaultValue = "16", description = "clients, 1 to 256")
    int concurrency;

    @Option(names = "--warmup", defaultValue = "20", description = "warm-up seconds")
    double warmup;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "an existing PostgreSQL")
    String jdbcUrl;

    @Option(names = "--json", description = "one JSON object as the last stdout line")
    boolean json;

    @Option(
        names = "--jfr",
        paramLabel = "FILE",
        description = "write a flight recording of the service over the measured time")
    java.nio.file.Path jfr;

    Api(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() {
      return ApiBench.run(
          new ApiBench.Options(duration, concurrency, warmup, jdbcUrl, json, jfr), out, err);
    }
  }

  /** {@code clearway bench soak}: a constant rate through the API for minutes. */
  @Command(
      name = "soak",
      mixinStandardHelpOptions = true,
      description =
          "The service at a constant rate for --minutes: payments/s, POST p99 and heap after GC"
              + " of the first and last five minutes, and the table sizes.")
  static final class Soak implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--minutes", defaultValue = "30", description = "minutes at the rate")
    double minutes;

    @Option(
        names = "--rate",
        defaultValue = "0",
        description = "payments/s (default: half of what a short bench api reaches)")
    double rate;

    @Option(names = "--warmup", defaultValue = "30", description = "warm-up seconds at the rate")
    double warmup;

    @Option(names = "--jdbc-url", paramLabel = "URL", description = "an existing PostgreSQL")
    String jdbcUrl;

    @Option(names = "--json", description = "one JSON object as the last stdout line")
    boolean json;

    Soak(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      return SoakBench.run(new SoakBench.Options(minutes, rate, warmup, jdbcUrl, json), out, err);
    }
  }

  /** {@code clearway bench sharded}: the payment bench on the sharded URL next to plain MariaDB. */
  @Command(
      name = "sharded",
      mixinStandardHelpOptions = true,
      description =
          "Payments/s on MariaDB and through ShardingSphere-JDBC over a sharding layout's"
              + " databases, in alternating windows of one run, with statements per payment and"
              + " shards per statement. Creates its databases on the layout's server, drops them.")
  static final class Sharded implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--payments", defaultValue = "20000", description = "payments per side")
    int payments;

    @Option(names = "--concurrency", defaultValue = "16", description = "client threads, 1 to 128")
    int concurrency;

    @Option(names = "--windows", defaultValue = "4", description = "alternating windows per side")
    int windows;

    @Option(
        names = "--layout",
        paramLabel = "YAML",
        defaultValue = "deploy/sharding/clearway-mariadb.yaml",
        description = "the ShardingSphere-JDBC layout whose databases are created for the run")
    java.nio.file.Path layout;

    @Option(names = "--json", description = "one JSON object as the last stdout line")
    boolean json;

    Sharded(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() {
      return ShardedBench.run(
          new ShardedBench.Options(payments, concurrency, windows, layout, json), out, err);
    }
  }
}
