package dev.clearway.lab;

import dev.clearway.lab.cli.BenchCommand;
import dev.clearway.lab.cli.ChaosCommand;
import dev.clearway.lab.cli.ClusterChaosCommand;
import dev.clearway.lab.cli.ReconcileCommand;
import dev.clearway.lab.cli.ServeCommand;
import dev.clearway.lab.cli.SimCommand;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line: {@code clearway demo | chaos [channels] | bench [drain|cluster|reconcile] |
 * serve | sim | cluster-chaos | reconcile | help}. {@code reconcile} reconciles one account-day,
 * importing a statement file given by hand first. {@code sim} runs the simulated wallet, business
 * and their ledger alone, for nodes elsewhere. A bad option, a bad value or an unknown command
 * answers a message and the usage on stderr and exits 2.
 */
@Command(
    name = "clearway",
    mixinStandardHelpOptions = true,
    version = "clearway 0.1.0",
    description = "Payment consistency engine: the demo, chaos runs, benchmarks and the service.")
public final class ClearwayMain implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one command line; the exit code: 0 passed, 1 failed a check, 2 bad usage. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CommandLine line =
        new CommandLine(new ClearwayMain())
            .addSubcommand(new DemoCommand(out, err))
            .addSubcommand(ChaosCommand.line(out, err))
            .addSubcommand(BenchCommand.line(out, err))
            .addSubcommand(new ServeCommand(out))
            .addSubcommand(new ClusterChaosCommand(out, err))
            .addSubcommand(new SimCommand(out, err, System::getenv))
            .addSubcommand(new ReconcileCommand(out))
            .addSubcommand(new CommandLine.HelpCommand());
    line.setOut(new PrintWriter(out, true, Charset.defaultCharset()));
    line.setErr(new PrintWriter(err, true, Charset.defaultCharset()));
    line.setExecutionExceptionHandler(
        (e, cmd, parsed) -> {
          if (e instanceof IllegalArgumentException) {
            cmd.getErr().println("error: " + e.getMessage());
            cmd.usage(cmd.getErr());
            return CommandLine.ExitCode.USAGE;
          }
          throw e;
        });
    return line.execute(args);
  }

  /** Without a command: the usage. */
  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** {@code clearway demo}. */
  @Command(
      name = "demo",
      mixinStandardHelpOptions = true,
      description = "The service on embedded PostgreSQL with a faulty simulated wallet over HTTP.")
  static final class DemoCommand implements Callable<Integer> {
    private final PrintStream out;
    private final PrintStream err;

    @Option(names = "--port", defaultValue = "8080", description = "HTTP port (0: any free one)")
    int port;

    @Option(
        names = "--exit-after",
        defaultValue = "0",
        paramLabel = "SECONDS",
        description = "stop after this many seconds (0: at Ctrl-C)")
    long exitAfter;

    @Option(names = "--rate", defaultValue = "20", description = "payments per second, 1 to 500")
    int rate;

    @Option(names = "--fault-rate", defaultValue = "0.2", description = "fault probability")
    double faultRate;

    @Option(names = "--seed", defaultValue = "42", description = "fault seed")
    long seed;

    DemoCommand(PrintStream out, PrintStream err) {
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
      return Demo.run(new Demo.Options(port, exitAfter, rate, faultRate, seed), out, err);
    }
  }
}
