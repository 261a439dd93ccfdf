package dev.clearway.lab.bench;

import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.store.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Arrays;

/**
 * Times one scanner round that claims 1,000 due flows among many terminal rows. The scan cost
 * should follow the due work, not the table size.
 */
final class ScannerBench {
  static final int DUE = 1_000;
  private static final int ROUNDS = 7;

  record Result(int terminalRows, double medianMillis) {}

  private final Database db;
  private final BenchDatabase bench;
  private final boolean restartIds;
  private final Clock clock = Clock.systemUTC();

  ScannerBench(Database db) {
    this(db, true);
  }

  /**
   * With {@code restartIds} false, new rows take ids after every id used before (the archive's).
   */
  ScannerBench(Database db, boolean restartIds) {
    this.db = db;
    this.bench = BenchDatabase.of(db);
    this.restartIds = restartIds;
  }

  Result run(int terminalRows) {
    load(terminalRows);
    EngineConfig config = EngineConfig.production().withScanBatch(200);
    Scanner scanner =
        new Scanner(
            db.flowStore(),
            new LeaseTokens("scan-bench", clock, config),
            config,
            EngineEvents.NONE,
            clock);
    double[] millis = new double[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      makeDue();
      long t0 = System.nanoTime();
      int claimed = scanner.runRound((id, trigger) -> {});
      millis[r] = (System.nanoTime() - t0) / 1e6;
      if (claimed != DUE) {
        throw new IllegalStateException("scanner claimed " + claimed + " of " + DUE);
      }
    }
    Arrays.sort(millis);
    return new Result(terminalRows, millis[ROUNDS / 2]);
  }

  private void load(int terminalRows) {
    withoutTimeouts(st -> bench.loadFlows(st, terminalRows, DUE, restartIds));
  }

  private void makeDue() {
    withoutTimeouts(st -> st.execute(bench.makeDueSql()));
  }

  /** A setup step on one statement of a connection that has no socket timeout. */
  private interface Setup {
    void run(Statement st) throws SQLException;
  }

  /**
   * Loading a million rows is not a statement of the engine: it runs without the pool's socket
   * timeout (restored before the connection goes back to the pool), and the load without the
   * statement timeout.
   */
  private void withoutTimeouts(Setup setup) {
    try (Connection c = db.dataSource().getConnection();
        Statement st = c.createStatement()) {
      c.setNetworkTimeout(Runnable::run, 0);
      setup.run(st);
    } catch (SQLException e) {
      throw new IllegalStateException("scanner bench setup", e);
    }
  }

  /**
   * PostgreSQL statements run as {@link #withoutTimeouts} runs the load, and without the statement
   * timeout (restored before the connection goes back to the pool).
   */
  void exec(String... statements) {
    try (Connection c = db.dataSource().getConnection();
        Statement st = c.createStatement()) {
      c.setNetworkTimeout(Runnable::run, 0);
      st.execute("SET statement_timeout = 0");
      try {
        for (String sql : statements) {
          st.execute(sql);
        }
      } finally {
        st.execute("RESET statement_timeout");
      }
    } catch (SQLException e) {
      throw new IllegalStateException("scanner bench setup", e);
    }
  }
}
