package dev.clearway.lab.bench;

import dev.clearway.lab.Parallel;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The database's own limit on this machine, measured in the same run, on the same database and
 * connection pool: single-row UPDATE transactions (pgbench's simple-update shape) per second.
 */
final class BaselineBench {
  private static final int ROWS = 100_000;

  private final DataSource dataSource;
  private final BenchDatabase bench;
  private final int concurrency;

  BaselineBench(DataSource dataSource, BenchDatabase bench, int concurrency) {
    this.dataSource = dataSource;
    this.bench = bench;
    this.concurrency = concurrency;
  }

  /** Commits per second over {@code seconds} of single-row UPDATEs in autocommit. */
  double run(double seconds) {
    prepare();
    AtomicLong commits = new AtomicLong();
    long stopAt = System.nanoTime() + (long) (seconds * 1e9);
    long t0 = System.nanoTime();
    Parallel.run(
        concurrency,
        "baseline",
        t -> {
          SplittableRandom random = new SplittableRandom(t);
          try (Connection c = dataSource.getConnection();
              PreparedStatement ps =
                  c.prepareStatement(
                      "UPDATE bench_account SET balance = balance + ? WHERE id = ?")) {
            while (System.nanoTime() < stopAt) {
              ps.setLong(1, random.nextInt(-5000, 5000));
              ps.setInt(2, 1 + random.nextInt(ROWS));
              ps.executeUpdate();
              commits.incrementAndGet();
            }
          } catch (SQLException e) {
            throw new IllegalStateException("baseline update", e);
          }
        });
    return commits.get() / ((System.nanoTime() - t0) / 1e9);
  }

  private void prepare() {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      bench.fillAccounts(st, ROWS);
    } catch (SQLException e) {
      throw new IllegalStateException("prepare baseline", e);
    }
  }
}
