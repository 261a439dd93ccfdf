package dev.clearway.lab.cli;

import dev.clearway.lab.bench.ArchiveBench;
import dev.clearway.lab.bench.Bench;
import dev.clearway.lab.bench.BenchOptions;
import dev.clearway.lab.bench.DrainBench;
import dev.clearway.lab.bench.ReconcileBench;
import dev.clearway.lab.bench.RecoveryBench;
import dev.clearway.lab.cluster.ClusterScaling;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code clearway bench} and its subcommands {@code drain}, {@code cluster}, {@code reconcile},
 * {@code archive} and {@code recovery}.
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

  @Option(names = "--jdbc-url", paramLabel = "URL", description = "an existing PostgreSQL")
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
        .addSubcommand(new Recovery(out, err));
  }

  @Override
  public Integer call() {
    return Bench.run(
        new BenchOptions(payments, concurrency, jdbcUrl, json, scannerRows, noScanner), out, err);
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

  /** {@code clearway bench recovery}: the scanner's recovery path next to db-scheduler. */
  @Command(
      name = "recovery",
      mixinStandardHelpOptions = true,
      description =
          "Due PAYING flows moved to BIZ_SUCCESS by the scanner and its workers alone, next to"
              + " db-scheduler executing as many no-op tasks, same database and threads, one run.")
  static final class Recovery implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--flows", defaultValue = "20000", description = "due flows, also the tasks")
    int flows;

    @Option(names = "--threads", defaultValue = "8", description = "worker threads, 1 to 64")
    int threads;

    @Option(names = "--json", description = "one JSON object as the last stdout line")
    boolean json;

    Recovery(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      return RecoveryBench.run(new RecoveryBench.Options(flows, threads, json), out, err);
    }
  }
}
