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
    exec(
        "TRUNCATE pay_flow_history, pay_flow_state, pay_flow_fact, outbox_event"
            + (restartIds ? " RESTART IDENTITY" : "")
            + " CASCADE",
        // Terminal rows, as years of finished payments leave them.
        flows(
            "g % 100000, 'bench', 'done:' || g, 1, 't_done_' || g, 'r_t_done_' || g, 100, 'CNY',"
                + " now(), now()",
            "'BIZ_SUCCESS', 3, now() - interval '1 day', now()", terminalRows),
        // The due work: flows left PAYING by lost wake-ups, spread through the id range.
        flows(
            "g, 'bench', 'due:' || g, 1, 't_due_' || g, 'r_t_due_' || g, 100, 'CNY',"
                + " now() + interval '1 day', now()",
            "'PAYING', 1, now() - interval '1 minute', now()",
            DUE),
        "VACUUM ANALYZE pay_flow_fact, pay_flow_state");
  }

  /** Inserts {@code rows} flows (facts and state) with the given column expressions of g. */
  private static String flows(String facts, String state, int rows) {
    return "WITH f AS (INSERT INTO pay_flow_fact (user_id, scene, biz_key, attempt_no,"
        + " trade_order_no, refund_order_no, amount, currency, biz_deadline_time, created_at)"
        + " SELECT "
        + facts
        + " FROM generate_series(1, "
        + rows
        + ") g RETURNING id)"
        + " INSERT INTO pay_flow_state (id, status, version, next_retry_time, updated_at)"
        + " SELECT id, "
        + state
        + " FROM f";
  }

  private void makeDue() {
    exec(
        "UPDATE pay_flow_state SET lease_owner = NULL, next_retry_time = now() - interval '1 minute'"
            + " WHERE status = 'PAYING'");
  }

  /**
   * Loading a million rows is not a statement of the engine: it runs without the pool's statement
   * and socket timeouts (restored before the connection goes back to the pool).
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
