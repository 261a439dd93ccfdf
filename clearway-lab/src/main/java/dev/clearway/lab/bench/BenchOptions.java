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
 * @param warmupSec untimed payments for this many seconds before the measured ones (0: the 500
 *     untimed payments only)
 */
public record BenchOptions(
    int payments,
    int concurrency,
    String jdbcUrl,
    boolean json,
    int scannerTerminalRows,
    boolean skipScanner,
    double warmupSec) {

  public BenchOptions {
    if (payments < 1
        || concurrency < 1
        || concurrency > 128
        || scannerTerminalRows < 100
        || !(warmupSec >= 0)) {
      throw new IllegalArgumentException(
          "--payments >= 1, --concurrency within [1, 128], --scanner-rows >= 100, --warmup >= 0");
    }
  }
}
