package dev.clearway.lab.bench;

/**
 * Options of {@code clearway bench}.
 *
 * @param payments payments to drive end to end
 * @param concurrency client threads, also the baseline's threads
 * @param jdbcUrl an existing PostgreSQL, or null for embedded
 * @param json print one JSON object as the last stdout line
 * @param scannerTerminalRows the large table size of the scanner benchmark (the small one is 1%)
 * @param skipScanner skip the scanner benchmark
 */
public record BenchOptions(
    int payments,
    int concurrency,
    String jdbcUrl,
    boolean json,
    int scannerTerminalRows,
    boolean skipScanner) {

  public static BenchOptions parse(String[] args) {
    int payments = 20_000;
    int concurrency = 16;
    String url = null;
    boolean json = false;
    int terminal = 1_000_000;
    boolean skipScanner = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--payments" -> payments = Integer.parseInt(value(args, ++i, a));
        case "--concurrency" -> concurrency = Integer.parseInt(value(args, ++i, a));
        case "--jdbc-url" -> url = value(args, ++i, a);
        case "--json" -> json = true;
        case "--scanner-rows" -> terminal = Integer.parseInt(value(args, ++i, a));
        case "--no-scanner" -> skipScanner = true;
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    if (payments < 1 || concurrency < 1 || concurrency > 128 || terminal < 100) {
      throw new IllegalArgumentException(
          "--payments >= 1, --concurrency within [1, 128], --scanner-rows >= 100");
    }
    return new BenchOptions(payments, concurrency, url, json, terminal, skipScanner);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }
}
