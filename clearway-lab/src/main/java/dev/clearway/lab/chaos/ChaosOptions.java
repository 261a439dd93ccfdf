package dev.clearway.lab.chaos;

import java.nio.file.Path;

/**
 * Options of {@code clearway chaos} and {@code clearway demo}.
 *
 * @param payments attempts to create in all
 * @param seed fault assignment seed: the same seed gives the same faults per order
 * @param faultRate probability that an order, refund, grant or wake-up gets a fault
 * @param concurrency client threads creating payments, and engine workers
 * @param out directory for the CSV files, or null
 * @param jdbcUrl an existing PostgreSQL, or null for embedded
 * @param timeoutSeconds bound on the wait for convergence
 */
public record ChaosOptions(
    int payments,
    long seed,
    double faultRate,
    int concurrency,
    Path out,
    String jdbcUrl,
    long timeoutSeconds) {

  public static ChaosOptions parse(String[] args, int defaultPayments) {
    int payments = defaultPayments;
    long seed = 42;
    double rate = 0.3;
    int concurrency = 16;
    Path out = null;
    String url = null;
    long timeout = 900;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--payments" -> payments = Integer.parseInt(value(args, ++i, a));
        case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
        case "--fault-rate" -> rate = Double.parseDouble(value(args, ++i, a));
        case "--concurrency" -> concurrency = Integer.parseInt(value(args, ++i, a));
        case "--out" -> out = Path.of(value(args, ++i, a));
        case "--jdbc-url" -> url = value(args, ++i, a);
        case "--timeout-seconds", "--exit-after" -> timeout = Long.parseLong(value(args, ++i, a));
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    if (payments < 1) {
      throw new IllegalArgumentException("--payments must be at least 1");
    }
    if (rate < 0 || rate > 1) {
      throw new IllegalArgumentException("--fault-rate must be within [0, 1]");
    }
    if (concurrency < 1 || concurrency > 128) {
      throw new IllegalArgumentException("--concurrency must be within [1, 128]");
    }
    return new ChaosOptions(payments, seed, rate, concurrency, out, url, timeout);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
