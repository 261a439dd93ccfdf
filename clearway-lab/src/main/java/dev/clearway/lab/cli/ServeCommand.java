package dev.clearway.lab.cli;

import dev.clearway.lab.serve.Serve;
import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clearway serve}: the service next to the simulators, until the process is stopped. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description =
        "The payment API on embedded PostgreSQL (or --jdbc-url) with the simulated wallet and"
            + " business.")
public final class ServeCommand implements Callable<Integer> {
  private final PrintStream out;

  @Option(names = "--port", defaultValue = "8080", description = "HTTP port, 0 to 65535")
  int port;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description = "an existing PostgreSQL or MariaDB/MySQL")
  String jdbcUrl;

  @Option(names = "--wallet-url", paramLabel = "URL", description = "an existing wallet")
  String walletUrl;

  @Option(
      names = "--business-url",
      paramLabel = "URL",
      description = "an existing business system implementing the business contract")
  String businessUrl;

  @Option(
      names = "--business-secret",
      paramLabel = "SECRET",
      defaultValue = "${env:CLEARWAY_BUSINESS_SECRET}",
      description =
          "the business contract's HMAC secret (default: CLEARWAY_BUSINESS_SECRET; prefer the"
              + " variable, a command line is visible to other users)")
  String businessSecret;

  @Option(
      names = "--broker",
      paramLabel = "URL",
      description = "RabbitMQ for wake-ups and events, amqp://user:password@host:5672")
  String brokerUrl;

  @Option(names = "--channels", description = "pay through two simulated Stripe-style PSPs")
  boolean channels;

  @Option(
      names = "--redis",
      paramLabel = "URL",
      description =
          "redis://host:port: the entry lock and each account's call budget shared by all nodes")
  String redisUrl;

  public ServeCommand(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws InterruptedException {
    Serve.Options options =
        Serve.Options.defaults()
            .withPort(port)
            .withJdbcUrl(jdbcUrl)
            .withWalletUrl(walletUrl)
            .withBusiness(
                businessUrl == null
                    ? Serve.Business.simulated(businessSecret)
                    : Serve.Business.at(businessUrl, businessSecret));
    if (brokerUrl != null) {
      options = options.withProperties(Map.of("clearway.broker.url", brokerUrl));
    }
    if (redisUrl != null) {
      options = options.withProperties(Map.of("clearway.redis.url", redisUrl));
    }
    return Serve.run(channels ? options.withChannels() : options, out);
  }
}
