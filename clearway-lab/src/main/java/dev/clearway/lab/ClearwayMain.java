package dev.clearway.lab;

import dev.clearway.lab.bench.Bench;
import dev.clearway.lab.chaos.ChaosOptions;
import dev.clearway.lab.chaos.ChaosRun;
import dev.clearway.lab.serve.Serve;
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
        case "chaos" ->
            rest.length > 0 && rest[0].equals("channels")
                ? channelChaos(Arrays.copyOfRange(rest, 1, rest.length), out, err)
                : chaos(ChaosOptions.parse(rest, 2_000), out, err);
        case "demo" -> Demo.run(rest, out, err);
        case "bench" ->
            rest.length > 0 && rest[0].equals("drain")
                ? dev.clearway.lab.bench.DrainBench.run(
                    Arrays.copyOfRange(rest, 1, rest.length), out, err)
                : Bench.run(rest, out, err);
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

  static int channelChaos(String[] args, PrintStream out, PrintStream err)
      throws InterruptedException {
    int payments = 600;
    long seed = 1;
    String url = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--payments" -> payments = Integer.parseInt(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--jdbc-url" -> url = args[++i];
        default -> throw new IllegalArgumentException("unknown option: " + args[i]);
      }
    }
    try (dev.clearway.store.Database db =
        url == null
            ? dev.clearway.store.Database.embedded(40)
            : dev.clearway.store.Database.connect(url, 40)) {
      dev.clearway.lab.channel.ChannelChaosReport report =
          new dev.clearway.lab.channel.ChannelChaos(db.dataSource(), payments, seed, err).run();
      report.violations().forEach(v -> err.println("violation: " + v));
      out.println(report.toJson());
      return report.passed() ? 0 : 1;
    }
  }

  static String usage() {
    return """
        usage: clearway <command> [options]
          demo  [--payments N] [--exit-after SECONDS]   chaos run on embedded PostgreSQL with a live table
          chaos --payments N --seed S [--fault-rate P] [--concurrency C] [--out DIR] [--jdbc-url URL]
                [--timeout-seconds T]
          chaos channels [--payments N] [--seed S] [--jdbc-url URL]   PSP outages, failover, recovery
          serve [--port P] [--jdbc-url URL]             the payment API on embedded PostgreSQL and the simulators
          bench drain [--backlog N] [--qps B] [--jdbc-url URL] [--json]
          bench [--payments N] [--concurrency C] [--jdbc-url URL] [--json] [--scanner-rows R] [--no-scanner]
        """;
  }
}
