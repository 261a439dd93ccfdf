package dev.clearway.lab.migration;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.EngineEvents;
import dev.clearway.core.migration.domain.HandBack;
import dev.clearway.core.migration.domain.Rollout;
import dev.clearway.core.migration.domain.Route;
import dev.clearway.core.migration.engine.MigrationRouter;
import dev.clearway.core.migration.port.LegacyMarkers;
import dev.clearway.core.migration.port.LegacyPaymentStore;
import dev.clearway.core.migration.port.MigrationEvents;
import dev.clearway.lab.Parallel;
import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.store.Database;
import dev.clearway.store.migration.JdbcLegacyPaymentStore;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * A switch-over from a simulated legacy payment path to Clearway: a share of the goals are already
 * being paid on the legacy path when clients start sending every goal through the routing step
 * (rollout of 80 %, the legacy markers, the legacy table by its query); some goals are sent twice
 * at once; new-payment intake is rolled back for a while mid-run. Goals handed back wait for the
 * legacy outcome and come back only if it failed; goals outside the rollout or sent while rolled
 * back are paid by the legacy path. Then: no goal charged by both paths, none charged twice by one,
 * every Clearway payment converged.
 */
public final class MigrationChaos {
  private static final String SCENE = "renewal";
  private static final int ROLLOUT_BASIS_POINTS = 8_000;
  private static final int MAX_TRIES = 4;

  private final Database db;
  private final int goals;
  private final long seed;
  private final double legacyShare;
  private final PrintStream progress;
  private final Clock clock = Clock.systemUTC();
  private final FaultPlan plan;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
  private final AtomicBoolean rolledBack = new AtomicBoolean();
  private final boolean probes;

  /**
   * @param legacyShare the share of goals in flight on the legacy path at switch-over, 0 to 1
   */
  public MigrationChaos(
      Database db, int goals, long seed, double legacyShare, PrintStream progress) {
    this(db, goals, seed, legacyShare, progress, true);
  }

  /**
   * With {@code probes} false the routing step asks neither the markers nor the legacy store: the
   * control run that shows what the probes prevent.
   */
  MigrationChaos(
      Database db, int goals, long seed, double legacyShare, PrintStream progress, boolean probes) {
    if (goals < 1 || legacyShare < 0 || legacyShare > 1) {
      throw new IllegalArgumentException("goals must be positive and the share within 0 and 1");
    }
    this.db = db;
    this.goals = goals;
    this.seed = seed;
    this.legacyShare = legacyShare;
    this.progress = progress;
    this.probes = probes;
    this.plan = new FaultPlan(seed, 0.2);
  }

  public MigrationChaosReport run() throws InterruptedException {
    long started = System.nanoTime();
    EngineConfig config = EngineConfig.compressed();
    SimWallet wallet = new SimWallet(plan, clock, config.lease().plusMillis(500));
    SimBusiness business = new SimBusiness(plan, clock);
    EngineAssembly engine =
        new EngineAssembly(
                db.flowStore(),
                wallet,
                business,
                EngineEvents.NONE,
                config,
                clock,
                "migration-" + seed,
                8,
                UnaryOperator.identity())
            .start();
    try (SimLegacyPath legacy = new SimLegacyPath(db.dataSource(), business)) {
      legacy.createTable();
      MigrationRouter router =
          new MigrationRouter(
              new Rollout(ROLLOUT_BASIS_POINTS, Set.of(), Set.of()),
              rolledBack::get,
              probes ? legacy : LegacyMarkers.NONE,
              probes
                  ? new JdbcLegacyPaymentStore(db.dataSource(), SimLegacyPath.QUERY, 2)
                  : LegacyPaymentStore.NONE,
              db.flowStore(),
              handBackCounter());
      switchOver(legacy);
      drive(engine, router, legacy);
      awaitQuiet(legacy, Duration.ofSeconds(120));
      engine.close();
      wallet.settleAll();
      MigrationChecks checks =
          new MigrationChecks(FlowSnapshot.read(db.dataSource()), wallet.ledger(), legacy);
      checks.run(this::goal, goals);
      checks.counts().forEach((k, v) -> counts.put(k, new AtomicLong(v)));
      Map<String, Long> out = new TreeMap<>();
      counts.forEach((k, v) -> out.put(k, v.get()));
      return new MigrationChaosReport(
          goals, seed, out, checks.violations(), (System.nanoTime() - started) / 1e9);
    }
  }

  GoalKey goal(int g) {
    return new GoalKey("m-" + (g % 3), 5_000 + g, SCENE, "M:" + seed + ":" + g);
  }

  private void count(String name) {
    counts.computeIfAbsent(name, n -> new AtomicLong()).incrementAndGet();
  }

  private MigrationEvents handBackCounter() {
    return new MigrationEvents() {
      @Override
      public void handedBack(HandBack reason) {
        count("handbacks_" + reason.label());
      }

      @Override
      public void unknown(String probe) {
        count("unknown_" + probe);
      }
    };
  }

  /** The goals already in flight on the legacy path at switch-over, each its own trace. */
  private void switchOver(SimLegacyPath legacy) {
    SimLegacyPath.Trace[] traces = SimLegacyPath.Trace.values();
    for (int g = 0; g < goals; g++) {
      String key = "g" + g;
      if (plan.unit("legacy.inflight", key, 0) >= legacyShare) {
        continue;
      }
      legacy.pay(
          goal(g),
          "LP-" + seed + "-" + g,
          traces[plan.below("legacy.trace", key, 0, traces.length)],
          100 + plan.below("legacy.done", key, 0, 3_900),
          plan.unit("legacy.pays", key, 0) < 0.7);
      count("legacy_in_flight_at_switch_over");
    }
  }

  /** Client threads: every goal once, some twice at once; intake rolled back for a while. */
  private void drive(EngineAssembly engine, MigrationRouter router, SimLegacyPath legacy) {
    AtomicInteger next = new AtomicInteger();
    Parallel.run(
        16,
        "migration-client",
        c -> {
          int g;
          while ((g = next.getAndIncrement()) < goals * 2) {
            int goal = g % goals;
            if (g >= goals && plan.unit("goal.twice", "g" + goal, 0) >= 0.15) {
              continue;
            }
            rollBackWindow(g);
            payGoal(engine, router, legacy, goal);
          }
        });
  }

  private void rollBackWindow(int g) {
    rolledBack.set(g >= goals * 4 / 10 && g < goals * 6 / 10);
  }

  /** Routes the goal and follows the answer, as a merchant's client would. */
  private void payGoal(EngineAssembly engine, MigrationRouter router, SimLegacyPath legacy, int g) {
    GoalKey goal = goal(g);
    String key = "g" + g;
    pause(plan.below("goal.arrives", key, 0, 400));
    for (int attempt = 0; attempt < MAX_TRIES; attempt++) {
      Route route = router.route(goal);
      if (route instanceof Route.Clearway) {
        long amount = 100 + plan.below("goal.amount", key, 0, 10_000);
        engine
            .payments()
            .start(
                new NewPayment(goal, amount, "CNY", clock.instant().plus(Duration.ofSeconds(4))));
        count("clearway_starts");
        return;
      }
      if (route instanceof Route.Legacy legacyRoute && legacyRoute.reference() == null) {
        // Outside the rollout or rolled back: the legacy path pays it.
        String orderNo = "LN-" + seed + "-" + g + "-" + attempt;
        long doneMs = 50 + plan.below("legacy.new", key, attempt, 550);
        boolean pays = plan.unit("legacy.new.pays", key, attempt) < 0.8;
        if (waitFor(legacy.pay(goal, orderNo, SimLegacyPath.Trace.MARKER_AND_ROW, doneMs, pays))) {
          return;
        }
      } else if (route instanceof Route.Legacy && waitFor(legacy.outcome(goal))) {
        return; // handed back: the legacy payment was paid.
      } else if (route instanceof Route.Unknown) {
        pause(100);
      }
    }
  }

  private static boolean waitFor(CompletableFuture<Boolean> outcome) {
    try {
      return outcome.get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits until no Clearway flow is open and no legacy payment is in flight. */
  private void awaitQuiet(SimLegacyPath legacy, Duration max) throws InterruptedException {
    long giveUp = System.nanoTime() + max.toNanos();
    while (System.nanoTime() < giveUp
        && (FlowSnapshot.unconverged(db.dataSource()) > 0 || legacy.open() > 0)) {
      Thread.sleep(200);
    }
    progress.printf(
        "migration: open Clearway flows %d, legacy payments in flight %d%n",
        FlowSnapshot.unconverged(db.dataSource()), legacy.open());
  }
}
