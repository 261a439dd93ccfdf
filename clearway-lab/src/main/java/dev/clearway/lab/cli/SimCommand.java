package dev.clearway.lab.cli;

import dev.clearway.lab.sim.QuietLogging;
import dev.clearway.lab.sim.SimCommandNames;
import dev.clearway.lab.sim.SimProcess;
import dev.clearway.lab.sim.StripeKeys;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code clearway sim}: the simulated wallet, business and their ledger in a process of their own,
 * until the process is stopped. Prints one JSON line with the three base URLs on stdout when ready;
 * everything else goes to stderr.
 */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    description = {
      "The simulated wallet (port P), business (P+1) and ledger/control server (P+2) for any"
          + " number of nodes. Secrets from CLEARWAY_SIM_WEBHOOK_SECRET (wallet callbacks) and"
          + " CLEARWAY_BUSINESS_SECRET (business contract).",
      "When ready, prints one line: {\"wallet\":URL,\"business\":URL,\"ledger\":URL}"
          + " (with --channels also \"stripeA\" and \"stripeB\")."
    })
public final class SimCommand implements Callable<Integer> {
  private final PrintStream out;
  private final PrintStream err;
  private final UnaryOperator<String> environment;

  @Option(
      names = "--port",
      defaultValue = "9090",
      description = "the wallet's port P; business P+1, ledger P+2 (0: any free ports)")
  int port;

  @Option(names = "--fault-rate", defaultValue = "0.2", description = "fault probability")
  double faultRate;

  @Option(names = "--seed", defaultValue = "42", description = "fault seed")
  long seed;

  @Option(
      names = "--callback-url",
      paramLabel = "URL",
      description =
          "where the wallet posts its signed callbacks; repeat it for several nodes (a target that"
              + " is down or answers 5xx passes the retry to the next)")
  List<URI> callbackUrls = new ArrayList<>();

  @Option(
      names = "--channels",
      description =
          "also two simulated Stripe-style PSP accounts on P+3 and P+4 (keys from"
              + " CLEARWAY_SIM_STRIPE_API_KEY and CLEARWAY_SIM_STRIPE_WEBHOOK_SECRET), webhooks to"
              + " /v1/channels/{1,2}/webhooks of the callback hosts")
  boolean channels;

  /**
   * @param environment the environment variables by name (the process's: {@code System::getenv})
   */
  public SimCommand(PrintStream out, PrintStream err, UnaryOperator<String> environment) {
    this.out = out;
    this.err = err;
    this.environment = environment;
  }

  @Override
  public Integer call() throws InterruptedException {
    SimProcess.Options options;
    try {
      options =
          new SimProcess.Options(
              port,
              faultRate,
              seed,
              callbackUrls,
              environment.apply(SimCommandNames.WEBHOOK_SECRET_ENV),
              environment.apply(SimCommandNames.BUSINESS_SECRET_ENV));
      if (channels) {
        options =
            options.withStripe(
                new StripeKeys(
                    environment.apply(SimCommandNames.STRIPE_API_KEY_ENV),
                    environment.apply(SimCommandNames.STRIPE_WEBHOOK_SECRET_ENV)));
      }
    } catch (IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    QuietLogging.toStandardError();
    SimProcess sim;
    try {
      sim = SimProcess.start(options);
    } catch (UncheckedIOException e) {
      err.println("error: " + e.getMessage() + " (is another process using it?)");
      return 1;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(sim::close, "clearway-sim-shutdown"));
    err.println(
        "clearway sim: fault rate "
            + faultRate
            + ", seed "
            + seed
            + ", callbacks to "
            + (callbackUrls.isEmpty() ? "nobody" : callbackUrls)
            + (channels ? ", with two Stripe-style PSP accounts" : ""));
    out.println(sim.readyLine());
    out.flush();
    Thread.currentThread().join();
    return 0;
  }
}
