package dev.clearway.lab.bench;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.Advancer;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.EngineRuntime;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.core.runtime.Supervision;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.Database;
import dev.clearway.store.Sql;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The Clearway leg of {@code bench recovery}: N flows left PAYING and due now (inserted in one
 * statement, untimed), a wallet that has every charge on record as SUCCESS and a business service
 * that grants at once, and nothing but the scanner and its workers to move them: no synchronous
 * path, no wake-ups; each claimed page moved together in shares (one group write per round). Timed
 * from the scanner's start until every flow is BIZ_SUCCESS; the transitions are the history rows
 * the run wrote.
 */
final class RecoveryFlows {
  private static final String TRADE_PREFIX = "t_rec_";
  private static final long AMOUNT = 100;

  /**
   * @param flows flows put in PAYING
   * @param bizSuccess flows BIZ_SUCCESS at the end (read from the table)
   * @param transitions history rows written by the run
   * @param seconds from the scanner's start until the last flow reached BIZ_SUCCESS
   */
  record Result(int flows, long bizSuccess, long transitions, double seconds) {
    double flowsPerSec() {
      return bizSuccess / seconds;
    }

    double transitionsPerSec() {
      return transitions / seconds;
    }
  }

  private final Database db;
  private final Sql sql;
  private final int threads;
  private final EngineConfig config;
  private final Duration limit;
  private final Clock clock = Clock.systemUTC();

  /**
   * @param config the engine's timing; the scanner's page is its scan batch
   * @param limit how long the run may take before it is given up (reported as not converged)
   */
  RecoveryFlows(Database db, int threads, EngineConfig config, Duration limit) {
    this.db = db;
    this.sql = new Sql(db.dataSource());
    this.threads = threads;
    this.config = config;
    this.limit = limit;
  }

  Result run(int flows) throws InterruptedException {
    load(flows);
    SimWallet wallet = paidWallet(flows);
    SimBusiness business = new SimBusiness(FaultPlan.none(), clock);
    LeaseTokens leases = new LeaseTokens("recovery-bench", clock, config);
    Advancer advancer =
        new Advancer(
            db.flowStore(),
            wallet,
            business,
            WakeupScheduler.NONE,
            EngineEvents.NONE,
            leases,
            config,
            clock);
    Scanner scanner = new Scanner(db.flowStore(), leases, config, EngineEvents.NONE, clock);
    CountDownLatch done = new CountDownLatch(flows);
    EngineRuntime runtime =
        new EngineRuntime(
            new EngineRuntime.Settings(
                "recovery-bench",
                "flow",
                config.scanInterval(),
                threads,
                threads * 4,
                Supervision.defaults()),
            (id, trigger) -> count(advancer.advance(id, trigger), done),
            // A claimed page is moved together: one group write per round of its flows.
            (rows, trigger) -> advancer.advancePage(rows, trigger).forEach(r -> count(r, done)),
            scanner::runRound);
    long t0 = System.nanoTime();
    runtime.start();
    done.await(limit.toMillis(), TimeUnit.MILLISECONDS);
    double seconds = (System.nanoTime() - t0) / 1e9;
    runtime.close();
    return new Result(
        flows,
        count("SELECT count(*) FROM pay_flow WHERE status = 'BIZ_SUCCESS'"),
        count("SELECT count(*) FROM pay_flow_history"),
        seconds);
  }

  private static void count(AdvanceResult r, CountDownLatch done) {
    if (r.flow() != null && r.flow().status() == FlowStatus.BIZ_SUCCESS) {
      done.countDown();
    }
  }

  /** Empty tables, then the flows: PAYING, unleased, due a second ago, one user each. */
  private void load(int flows) {
    new ScannerBench(db)
        .exec(
            "TRUNCATE pay_flow_history, pay_flow_state, pay_flow_fact, outbox_event"
                + " RESTART IDENTITY CASCADE",
            // A flow's write-once facts and its mutable state live in two tables.
            "WITH f AS (INSERT INTO pay_flow_fact (user_id, scene, biz_key, attempt_no,"
                + " trade_order_no, refund_order_no, amount, currency, biz_deadline_time,"
                + " created_at)"
                + " SELECT g, 'bench', 'rec:' || g, 1, '"
                + TRADE_PREFIX
                + "' || g, 'r_"
                + TRADE_PREFIX
                + "' || g, "
                + AMOUNT
                + ", 'CNY', now() + interval '1 day', now()"
                + " FROM generate_series(1, "
                + flows
                + ") g RETURNING id)"
                + " INSERT INTO pay_flow_state (id, status, version, next_retry_time, updated_at)"
                + " SELECT id, 'PAYING', 1, now() - interval '1 second', now() FROM f",
            "VACUUM ANALYZE pay_flow_fact, pay_flow_state, pay_flow_history");
  }

  /** A wallet on which every flow's charge already executed, so its query answers SUCCESS. */
  private SimWallet paidWallet(int flows) {
    SimWallet wallet = new SimWallet(FaultPlan.none(), clock);
    for (int g = 1; g <= flows; g++) {
      wallet.pay(new ChargeRequest(TRADE_PREFIX + g, g, AMOUNT, "CNY"));
    }
    return wallet;
  }

  private long count(String query) {
    return sql.query(query, ps -> {}, rs -> rs.getLong(1)).get(0);
  }
}
