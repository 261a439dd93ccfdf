package dev.clearway.lab.cli;

import dev.clearway.lab.cluster.ClusterChaos;
import dev.clearway.lab.cluster.ClusterOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clearway cluster-chaos}: real processes, real deaths, the invariants checked after. */
@Command(
    name = "cluster-chaos",
    mixinStandardHelpOptions = true,
    description =
        "The simulator process and N engine nodes as JVMs of their own on one PostgreSQL and"
            + " RabbitMQ; kill -9 nodes, restart PostgreSQL and RabbitMQ, take the wallet down;"
            + " then check every invariant. The last stdout line is one JSON object; exit 0 only"
            + " when every payment converged with no violation.")
public final class ClusterChaosCommand implements Callable<Integer> {
  private final PrintStream out;
  private final PrintStream err;

  @Option(names = "--nodes", defaultValue = "3", description = "engine nodes, 1 to 9")
  int nodes;

  @Option(names = "--payments", defaultValue = "2000", description = "payments to drive")
  int payments;

  @Option(names = "--seed", defaultValue = "1", description = "faults, kills and payment mix")
  long seed;

  @Option(
      names = "--kill-every",
      defaultValue = "5",
      paramLabel = "SECONDS",
      description = "kill -9 a random node this often (0: never)")
  int killEvery;

  @Option(names = "--fault-rate", defaultValue = "0.3", description = "simulator fault rate")
  double faultRate;

  @Option(names = "--out", paramLabel = "DIR", description = "write the CSV files and logs here")
  Path outDir;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description =
          "PostgreSQL (default: a fresh database on 127.0.0.1:5432 when it answers, else embedded)")
  String jdbcUrl;

  @Option(
      names = "--broker",
      paramLabel = "URL",
      description = "RabbitMQ (default: amqp://guest:guest@127.0.0.1:5672)")
  String broker;

  @Option(names = "--concurrency", defaultValue = "24", description = "client requests in flight")
  int concurrency;

  @Option(
      names = "--wallet-qps",
      defaultValue = "300",
      description = "the wallet's calls per second, summed over all nodes")
  int walletQps;

  @Option(
      names = "--timeout",
      defaultValue = "300",
      paramLabel = "SECONDS",
      description = "longest wait for convergence after the load")
  int timeout;

  public ClusterChaosCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws InterruptedException {
    ClusterOptions options =
        new ClusterOptions(
            nodes,
            payments,
            seed,
            killEvery,
            faultRate,
            outDir,
            jdbcUrl,
            broker,
            concurrency,
            walletQps,
            timeout);
    ClusterChaos.Result result = new ClusterChaos(options, err).run();
    result.examples().forEach(e -> err.println("violation: " + e));
    out.println(result.json());
    return result.passed() ? 0 : 1;
  }
}
