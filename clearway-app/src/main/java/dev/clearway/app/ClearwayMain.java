package dev.clearway.app;

import dev.clearway.app.bench.Bench;
import dev.clearway.app.chaos.ChaosOptions;
import dev.clearway.app.chaos.ChaosRun;
import dev.clearway.app.server.Serve;
import java.io.PrintStream;
import java.util.Arrays;

/** The command line: {@code clearway demo | chaos | help}. */
public final class ClearwayMain {
  private ClearwayMain() {}

  public static void main(String[] args) throws InterruptedException {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
    String command = args.length == 0 ? "help" : args[0];
    String[] rest = Arrays.copyOfRange(args, Math.min(1, args.length), args.length);
    try {
      return switch (command) {
        case "chaos" -> chaos(ChaosOptions.parse(rest, 2_000), out, err);
        case "demo" -> Demo.run(rest, out, err);
        case "bench" -> Bench.run(rest, out, err);
        case "serve" -> Serve.run(rest, out);
        case "help", "--help", "-h" -> {
          out.println(usage());
          yield 0;
        }
        default -> {
          err.println("unknown command: " + command);
          err.println(usage());
          yield 2;
        }
      };
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      err.println(usage());
      return 2;
    }
  }

  static int chaos(ChaosOptions options, PrintStream out, PrintStream err) {
    ChaosRun.Report report = new ChaosRun(options, err).run();
    report.examples().forEach(e -> err.println("violation: " + e));
    err.println("faults: " + report.faultSummary());
    out.println(report.verdict().toJson());
    return report.verdict().passed() ? 0 : 1;
  }

  static String usage() {
    return """
        usage: clearway <command> [options]
          demo  [--payments N] [--exit-after SECONDS]   chaos run on embedded PostgreSQL with a live table
          chaos --payments N --seed S [--fault-rate P] [--concurrency C] [--out DIR] [--jdbc-url URL]
                [--timeout-seconds T]
          serve [--port P] [--jdbc-url URL]             the payment API on embedded PostgreSQL and the simulators
          bench [--payments N] [--concurrency C] [--jdbc-url URL] [--json] [--scanner-rows R] [--no-scanner]
        """;
  }
}
