package dev.clearway.lab.cli;

import dev.clearway.lab.bench.RecoveryBench;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clearway bench recovery}: the scanner's recovery path next to db-scheduler. */
@Command(
    name = "recovery",
    mixinStandardHelpOptions = true,
    description =
        "Due PAYING flows moved to BIZ_SUCCESS by the scanner and its workers alone, next to"
            + " db-scheduler executing as many no-op tasks, same database and threads, one run.")
final class RecoveryBenchCommand implements Callable<Integer> {
  private final PrintStream out;
  private final PrintStream err;

  @Option(names = "--flows", defaultValue = "20000", description = "due flows, also the tasks")
  int flows;

  @Option(names = "--threads", defaultValue = "8", description = "worker threads, 1 to 64")
  int threads;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description = "an existing PostgreSQL (its tables are emptied)")
  String jdbcUrl;

  @Option(names = "--json", description = "one JSON object as the last stdout line")
  boolean json;

  RecoveryBenchCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public Integer call() throws InterruptedException {
    return RecoveryBench.run(new RecoveryBench.Options(flows, threads, jdbcUrl, json), out, err);
  }
}
