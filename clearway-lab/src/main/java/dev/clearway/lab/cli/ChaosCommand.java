package dev.clearway.lab.cli;

import dev.clearway.lab.channel.ChannelChaos;
import dev.clearway.lab.channel.ChannelChaosReport;
import dev.clearway.lab.chaos.ChaosDatabase;
import dev.clearway.lab.chaos.ChaosOptions;
import dev.clearway.lab.chaos.ChaosRun;
import dev.clearway.lab.migration.MigrationChaos;
import dev.clearway.lab.migration.MigrationChaosReport;
import dev.clearway.lab.recon.ReconChaos;
import dev.clearway.lab.recon.ReconChaosReport;
import dev.clearway.store.Database;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code clearway chaos}, {@code clearway chaos channels}, {@code clearway chaos reconcile} and
 * {@code clearway chaos migration}.
 */
@Command(
    name = "chaos",
    mixinStandardHelpOptions = true,
    description =
        "Payments against a faulty simulated wallet and business; exit 0 only if every flow"
            + " converged and every invariant held. The last stdout line is one JSON object.")
public final class ChaosCommand implements Callable<Integer> {
  private final PrintStream out;
  private final PrintStream err;

  @Option(names = "--payments", defaultValue = "2000", description = "attempts to create")
  int payments;

  @Option(names = "--seed", defaultValue = "42", description = "fault seed")
  long seed;

  @Option(names = "--fault-rate", defaultValue = "0.3", description = "fault probability, 0 to 1")
  double faultRate;

  @Option(names = "--concurrency", defaultValue = "16", description = "client threads, 1 to 128")
  int concurrency;

  @Option(names = "--out", paramLabel = "DIR", description = "write the CSV files here")
  Path outDir;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description =
          "an existing PostgreSQL or MariaDB/MySQL, or a sharded layout"
              + " (jdbc:shardingsphere:absolutepath:<yaml>: its databases and schema are created)")
  String jdbcUrl;

  @Option(
      names = {"--timeout-seconds", "--exit-after"},
      defaultValue = "900",
      description = "bound on the wait for convergence")
  long timeoutSeconds;

  @Option(
      names = "--archive-every-ms",
      defaultValue = "0",
      description = "run the retention job this often during the run, archiving every ended flow")
  long archiveEveryMs;

  ChaosCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /** The command with its {@code channels} subcommand. */
  public static CommandLine line(PrintStream out, PrintStream err) {
    return new CommandLine(new ChaosCommand(out, err))
        .addSubcommand(new Channels(out, err))
        .addSubcommand(new Reconcile(out, err))
        .addSubcommand(new Migration(out, err));
  }

  @Override
  public Integer call() {
    ChaosOptions options =
        new ChaosOptions(payments, seed, faultRate, concurrency, outDir, jdbcUrl, timeoutSeconds);
    ChaosRun run = new ChaosRun(options, err);
    if (archiveEveryMs > 0) {
      run = run.archivingMidRun(Duration.ofMillis(archiveEveryMs));
    }
    ChaosRun.Report report = run.run();
    report.examples().forEach(e -> err.println("violation: " + e));
    err.println("faults: " + report.faultSummary());
    out.println(report.verdict().toJson());
    return report.verdict().passed() ? 0 : 1;
  }

  /** {@code clearway chaos channels}. */
  @Command(
      name = "channels",
      mixinStandardHelpOptions = true,
      description =
          "PSP outages, failover and recovery over simulated Stripe- and WeChat-style PSPs.")
  static final class Channels implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--payments", defaultValue = "600", description = "payments to make")
    int payments;

    @Option(names = "--seed", defaultValue = "1", description = "scenario seed")
    long seed;

    @Option(
        names = "--jdbc-url",
        paramLabel = "URL",
        description = "an existing PostgreSQL or MariaDB/MySQL")
    String jdbcUrl;

    Channels(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      try (Database db = jdbcUrl == null ? Database.embedded(40) : Database.connect(jdbcUrl, 40)) {
        ChannelChaosReport report =
            new ChannelChaos(db.dataSource(), db.dialect(), payments, seed, err).run();
        report.violations().forEach(v -> err.println("violation: " + v));
        out.println(report.toJson());
        return report.passed() ? 0 : 1;
      }
    }
  }

  /** {@code clearway chaos reconcile}. */
  @Command(
      name = "reconcile",
      mixinStandardHelpOptions = true,
      description =
          "Differences only the PSPs' statements show, injected by the simulators, imported,"
              + " reconciled and repaired; exit 0 only if none was missed, none found without"
              + " cause and every invariant held after the repairs.")
  static final class Reconcile implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--payments", defaultValue = "600", description = "payments to make")
    int payments;

    @Option(names = "--seed", defaultValue = "1", description = "scenario seed")
    long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "write the CSV files here")
    Path outDir;

    @Option(
        names = "--jdbc-url",
        paramLabel = "URL",
        description =
            "an empty PostgreSQL, MariaDB or MySQL, or a sharded layout"
                + " (jdbc:shardingsphere:absolutepath:<yaml>)")
    String jdbcUrl;

    Reconcile(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      if (payments < 1 || payments > 100_000) {
        throw new IllegalArgumentException("--payments must be within 1 and 100000");
      }
      try (Database db = ChaosDatabase.open(jdbcUrl, 40)) {
        ReconChaosReport report = new ReconChaos(db, payments, seed, outDir, err).run();
        report.findings().forEach(err::println);
        out.println(report.toJson());
        return report.passed() ? 0 : 1;
      }
    }
  }

  /** {@code clearway chaos migration}. */
  @Command(
      name = "migration",
      mixinStandardHelpOptions = true,
      description =
          "A switch-over from a simulated legacy payment path with a share of goals already in"
              + " flight on it; exit 0 only if no goal was charged by both paths or twice by one"
              + " and every Clearway payment converged.")
  static final class Migration implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--goals", defaultValue = "600", description = "goals to pay")
    int goals;

    @Option(names = "--seed", defaultValue = "1", description = "scenario seed")
    long seed;

    @Option(
        names = "--legacy-share",
        defaultValue = "0.3",
        description = "share of goals in flight on the legacy path at switch-over, 0 to 1")
    double legacyShare;

    @Option(
        names = "--jdbc-url",
        paramLabel = "URL",
        description = "an existing PostgreSQL or MariaDB/MySQL")
    String jdbcUrl;

    Migration(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      if (goals < 1 || goals > 100_000) {
        throw new IllegalArgumentException("--goals must be within 1 and 100000");
      }
      try (Database db = jdbcUrl == null ? Database.embedded(40) : Database.connect(jdbcUrl, 40)) {
        MigrationChaosReport report = new MigrationChaos(db, goals, seed, legacyShare, err).run();
        report.violations().forEach(v -> err.println("violation: " + v));
        out.println(report.toJson());
        return report.passed() ? 0 : 1;
      }
    }
  }
}
