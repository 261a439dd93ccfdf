package dev.clearway.lab.engine;

import static dev.clearway.service.testkit.EngineHarness.T0;
import static dev.clearway.service.testkit.EngineHarness.goal;
import static dev.clearway.service.testkit.EngineHarness.refundNo;
import static dev.clearway.service.testkit.EngineHarness.trade;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.AdvanceResult.Outcome;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.lab.chaos.InvariantChecker;
import dev.clearway.lab.chaos.Verdict;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.RecordingWakeups.Wakeup;
import dev.clearway.service.testkit.ScriptedBusiness.Fulfil;
import dev.clearway.service.testkit.ScriptedWallet.Pay;
import dev.clearway.service.testkit.ScriptedWallet.Refund;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every entry at once: the synchronous entry, duplicated wake-ups, callbacks and scanner rounds run
 * from several threads on the same flows while the clock runs fast enough for leases to expire
 * mid-advance. Whatever the interleaving, every flow ends terminal, no order is charged or refunded
 * twice, and the history only has legal edges.
 */
@Tag(TestDatabase.MYSQL_FAMILY)
class ConcurrentAdvanceTest {
  private static final int GOALS = 200;
  private static final int THREADS = 8;
  private static final int OPS_PER_THREAD = 250;
  private static final long SEED = 20_261_201L;
  private static final EngineConfig CONFIG = EngineConfig.compressed();

  @Test
  void syncWakeupsCallbacksAndScannersRacingOnTheSameFlowsConverge() throws Exception {
    EngineHarness h = EngineHarness.fresh(CONFIG);
    Random rnd = new Random(SEED);
    List<GoalKey> goals = new ArrayList<>();
    List<Instant> deadlines = new ArrayList<>();
    List<GoalKey> foreign = new ArrayList<>();
    for (int i = 0; i < GOALS; i++) {
      GoalKey g = goal("C:" + i);
      goals.add(g);
      deadlines.add(T0.plusMillis(12_000 + 1_500L * (i % 10)));
      if (rnd.nextInt(100) < 10) {
        h.business.unreadableFacts(g, 1 + rnd.nextInt(3));
      }
      if (rnd.nextInt(100) < 6) {
        foreign.add(g);
      }
    }
    for (long id = 1; id <= 3L * GOALS; id++) {
      script(h, id, rnd);
    }
    List<Integer> starts = new ArrayList<>();
    for (int i = 0; i < GOALS; i++) {
      starts.add(i);
      starts.add(i); // a double click: the same goal started twice, possibly at once
    }
    Collections.shuffle(starts, rnd);

    AtomicInteger startCursor = new AtomicInteger();
    AtomicLong maxId = new AtomicLong();
    AtomicInteger busy = new AtomicInteger();
    AtomicInteger crashes = new AtomicInteger();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean ticking = new AtomicBoolean(true);
    Thread ticker =
        new Thread(
            () -> {
              while (ticking.get()) {
                h.clock.advance(Duration.ofMillis(20));
                try {
                  Thread.sleep(1);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "test-ticker");
    ticker.setDaemon(true);

    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<?>> workers = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Random r = new Random(SEED * 31 + t);
      workers.add(
          pool.submit(
              () -> {
                go.await();
                for (int op = 0; op < OPS_PER_THREAD; op++) {
                  try {
                    runOne(h, r, goals, deadlines, foreign, starts, startCursor, maxId, busy);
                  } catch (SimulatedCrash crash) {
                    crashes.incrementAndGet();
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                }
                return null;
              }));
    }
    ticker.start();
    go.countDown();
    for (Future<?> f : workers) {
      f.get(120, TimeUnit.SECONDS);
    }
    ticking.set(false);
    ticker.join();
    assertThat(failures).as("unexpected exceptions in workers").isEmpty();
    assertThat(startCursor.get()).as("all starts ran").isGreaterThanOrEqualTo(starts.size());

    // Quiescence: time jumps past every lease, backoff and deadline; scanners race each other.
    for (int round = 0; round < 60 && open(h) > 0; round++) {
      h.clock.advance(Duration.ofSeconds(3));
      List<Future<?>> scans = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        scans.add(
            pool.submit(
                () -> {
                  h.scan();
                  Wakeup w = h.wakeups.poll();
                  if (w != null) {
                    h.advance(w.flowId(), TriggerSource.WAKEUP);
                  }
                  return null;
                }));
      }
      for (Future<?> f : scans) {
        f.get(60, TimeUnit.SECONDS);
      }
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(failures).isEmpty();

    List<Long> ids = h.flowIds();
    Map<FlowStatus, Integer> byStatus = new TreeMap<>();
    for (long id : ids) {
      PayFlow f = h.flow(id);
      byStatus.merge(f.status(), 1, Integer::sum);
      assertThat(f.isTerminal()).as("flow %d %s/%s", id, f.status(), f.reviewState()).isTrue();
    }
    assertThat(ids.size()).isGreaterThanOrEqualTo(GOALS);
    for (GoalKey g : goals) {
      assertThat(h.store.findByGoal(g)).as("attempts of %s", g).isNotEmpty();
    }
    assertThat(Invariants.safety(h)).isEmpty();
    assertThat(Invariants.convergence(h)).isEmpty();
    assertHistoryBySql(h);

    // Cross-check with the chaos verifier over the same rows and ledgers.
    InvariantChecker checker = new InvariantChecker();
    Verdict verdict =
        checker.check(
            FlowSnapshot.read(h.dataSource), h.wallet.ledger(), h.business.grants(), ids.size(), 0);
    assertThat(verdict.violations().values()).as("%s", checker.examples()).containsOnly(0);
    assertThat(verdict.passed()).isTrue();

    // The run really raced and really reached the interesting outcomes.
    assertThat(busy.get()).as("claims refused to a concurrent trigger").isPositive();
    assertThat(crashes.get() + h.crashes()).as("workers died mid-step").isPositive();
    // Leases keep concurrent triggers out before any external call, so CAS conflicts are rare
    // here; EnginePropertyTest forces them with takeovers in the middle of a call.
    assertThat(h.events.count("casConflict:CONTRADICTION")).isZero();
    assertThat(byStatus).containsKeys(FlowStatus.BIZ_SUCCESS, FlowStatus.REFUNDED);
    System.out.printf(
        "ConcurrentAdvanceTest: flows=%d byStatus=%s busy=%d crashes=%d conflicts=%d%n",
        ids.size(),
        byStatus,
        busy.get(),
        crashes.get() + h.crashes(),
        h.events.count("casConflict:IDEMPOTENT") + h.events.count("casConflict:CONTRADICTION"));
  }

  /**
   * A scanner task that waited in a worker queue past its lease while another scanner took the flow
   * over must not release the new holder's lease (FlowStore.reschedule: "a writer whose lease was
   * taken over gets false").
   */
  @Test
  void staleScannerTaskDoesNotReleaseTheLeaseOfTheWorkerThatTookOver() {
    EngineHarness h = EngineHarness.fresh(CONFIG);
    GoalKey g = goal("R:stale");
    h.business.script(trade(1), Fulfil.NEVER);
    h.start(g, T0.plus(Duration.ofHours(1)));
    assertThat(h.flow(1).status()).isEqualTo(FlowStatus.PAYED);

    h.clock.set(h.flow(1).nextRetryTime());
    List<Trigger> queued = new ArrayList<>();
    assertThat(h.scanner.runRound((id, t) -> queued.add(t))).isEqualTo(1);
    h.clock.advance(CONFIG.lease().plusMillis(1));
    List<Trigger> takenOver = new ArrayList<>();
    assertThat(h.scanner.runRound((id, t) -> takenOver.add(t))).isEqualTo(1);
    String holder = takenOver.get(0).lease().token();
    PayFlow held = h.flow(1);
    assertThat(held.leaseOwner()).isEqualTo(holder);

    AdvanceResult stale = h.advancer.advance(1, queued.get(0));

    PayFlow after = h.flow(1);
    assertThat(after.leaseOwner())
        .as("stale task (%s) ended %s; the holder's lease must survive", stale.outcome(), after)
        .isEqualTo(holder);
    assertThat(after.nextRetryTime()).isEqualTo(held.nextRetryTime());
  }

  // ---- the chaos ------------------------------------------------------------------------------

  private static void script(EngineHarness h, long id, Random rnd) {
    int p = rnd.nextInt(100);
    Pay pay =
        p < 35
            ? Pay.RESPONSE_LOST
            : p < 45
                ? Pay.PROCESSING
                : p < 55
                    ? Pay.TIMEOUT_BEFORE
                    : p < 60
                        ? Pay.ERROR_5XX_AFTER
                        : p < 66 ? Pay.CRASH_AFTER : p < 70 ? Pay.REJECT : Pay.SUCCESS;
    h.wallet.scriptPay(trade(id), pay);
    if (rnd.nextInt(100) < 15) {
      h.wallet.scriptPay(trade(id), Pay.TIMEOUT_BEFORE);
    }
    int b = rnd.nextInt(100);
    if (b < 10) {
      h.business.script(trade(id), Fulfil.RESPONSE_LOST);
    } else if (b < 25) {
      h.business.script(trade(id), Fulfil.NEVER);
    } else if (b < 35) {
      h.business.scriptLater(trade(id), T0.plusMillis(rnd.nextInt(9_000)));
    } else if (b < 41) {
      h.business.script(trade(id), Fulfil.CRASH_AFTER_GRANT);
    } else if (b < 47) {
      h.business.script(trade(id), Fulfil.UNAVAILABLE, Fulfil.GRANT);
    }
    int f = rnd.nextInt(100);
    Refund refund =
        f < 25
            ? Refund.RESPONSE_LOST
            : f < 40
                ? Refund.FAILED_ONCE
                : f < 50
                    ? Refund.PROCESSING
                    : f < 56 ? Refund.CRASH_AFTER : f < 62 ? Refund.TIMEOUT_BEFORE : Refund.SUCCESS;
    h.wallet.scriptRefund(refundNo(id), refund);
  }

  private static void runOne(
      EngineHarness h,
      Random r,
      List<GoalKey> goals,
      List<Instant> deadlines,
      List<GoalKey> foreign,
      List<Integer> starts,
      AtomicInteger startCursor,
      AtomicLong maxId,
      AtomicInteger busy) {
    if (startCursor.get() < starts.size() && r.nextInt(10) < 6) {
      int c = startCursor.getAndIncrement();
      if (c < starts.size()) {
        int g = starts.get(c);
        record(h.start(goals.get(g), deadlines.get(g)).result(), maxId, busy);
        return;
      }
    }
    long top = maxId.get();
    long id = top == 0 ? 1 : 1 + r.nextInt((int) top);
    int op = r.nextInt(100);
    if (op < 30) {
      record(h.advance(id, TriggerSource.WAKEUP), maxId, busy);
      record(h.advance(id, TriggerSource.WAKEUP), maxId, busy); // duplicated delivery
    } else if (op < 45) {
      record(h.advance(id, TriggerSource.CALLBACK), maxId, busy);
    } else if (op < 65) {
      Wakeup w = h.wakeups.poll();
      if (w != null) {
        record(h.advance(w.flowId(), TriggerSource.WAKEUP), maxId, busy);
        if (r.nextInt(5) == 0) {
          record(h.advance(w.flowId(), TriggerSource.WAKEUP), maxId, busy);
        }
      }
    } else if (op < 80) {
      h.scan();
    } else if (op < 90) {
      int g = r.nextInt(goals.size());
      record(h.start(goals.get(g), deadlines.get(g)).result(), maxId, busy);
    } else if (op < 93) {
      // While some worker waits for the wallet, a scanner task that sat in a queue past its lease
      // runs the same flow (no clock jump: the shared clock stays with the deadlines).
      h.wallet.duringNextCall(
          orderNo ->
              h.flowIdOf(orderNo)
                  .ifPresent(
                      flowId -> {
                        try {
                          record(
                              h.advancer.advance(
                                  flowId, Trigger.held(TriggerSource.SCANNER, h.leases.next())),
                              maxId,
                              busy);
                        } catch (SimulatedCrash crash) {
                          h.countCrash();
                        }
                      }));
    } else if (op < 96) {
      if (!foreign.isEmpty()) {
        GoalKey g = foreign.get(r.nextInt(foreign.size()));
        h.business.grantForeign(g, "legacy_" + g.bizKey());
      }
    } else {
      h.wallet.deliverLatePay(trade(id));
    }
  }

  private static void record(AdvanceResult result, AtomicLong maxId, AtomicInteger busy) {
    if (result.flow() != null) {
      maxId.accumulateAndGet(result.flow().id(), Math::max);
    }
    if (result.outcome() == Outcome.BUSY) {
      busy.incrementAndGet();
    }
  }

  private static int open(EngineHarness h) throws SQLException {
    return (int)
        single(
            h,
            "SELECT count(*) FROM pay_flow WHERE status IN"
                + " ('WAIT_PAY','PAYING','PAYED','REFUNDING') AND review_state <> 'FROZEN'");
  }

  /** The history, checked directly in SQL against {@link Transitions}. */
  private static void assertHistoryBySql(EngineHarness h) throws SQLException {
    Map<String, Integer> edges = new ConcurrentHashMap<>();
    try (Connection c = h.dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT from_status, to_status, count(*) FROM pay_flow_history"
                    + " WHERE from_status IS NOT NULL GROUP BY from_status, to_status")) {
      while (rs.next()) {
        edges.put(rs.getString(1) + "->" + rs.getString(2), rs.getInt(3));
        FlowStatus from = FlowStatus.valueOf(rs.getString(1));
        FlowStatus to = FlowStatus.valueOf(rs.getString(2));
        assertThat(Transitions.isLegal(from, to)).as("edge %s->%s", from, to).isTrue();
        assertThat(from.isTerminal()).as("edge out of terminal %s", from).isFalse();
      }
    }
    assertThat(edges).isNotEmpty();
    assertThat(
            single(
                h,
                "SELECT count(*) FROM (SELECT version, from_status, lag(version) OVER w AS pv,"
                    + " lag(to_status) OVER w AS pt FROM pay_flow_history"
                    + " WINDOW w AS (PARTITION BY flow_id ORDER BY id)) x"
                    + " WHERE (pv IS NULL AND (version <> 0 OR from_status IS NOT NULL))"
                    + " OR (pv IS NOT NULL AND (version <> pv + 1 OR from_status <> pt))"))
        .as("history rows whose version or from_status does not follow the previous row")
        .isZero();
    assertThat(
            single(
                h,
                "SELECT count(*) FROM pay_flow f WHERE f.version <> (SELECT max(version) FROM"
                    + " pay_flow_history x WHERE x.flow_id = f.id) OR f.status <> (SELECT to_status"
                    + " FROM pay_flow_history x WHERE x.flow_id = f.id ORDER BY id DESC LIMIT 1)"))
        .as("rows whose version/status differ from their last history row")
        .isZero();
  }

  private static long single(EngineHarness h, String sql) throws SQLException {
    try (Connection c = h.dataSource.getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
