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
 * @param jdbcUrl an existing PostgreSQL or MySQL-family database, a sharded {@code
 *     jdbc:shardingsphere:absolutepath:} layout, or null for embedded
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

  public ChaosOptions {
    if (payments < 1) {
      throw new IllegalArgumentException("--payments must be at least 1");
    }
    if (faultRate < 0 || faultRate > 1) {
      throw new IllegalArgumentException("--fault-rate must be within [0, 1]");
    }
    if (concurrency < 1 || concurrency > 128) {
      throw new IllegalArgumentException("--concurrency must be within [1, 128]");
    }
  }
}
