package dev.clearway.lab.chaos;

import dev.clearway.boot.EngineAssembly;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.PaymentService.Started;
import dev.clearway.core.flow.port.OverloadEvents;
import dev.clearway.core.flow.port.WorkerFailures;
import dev.clearway.core.runtime.QueueLimits;
import dev.clearway.core.runtime.Supervision;
import dev.clearway.lab.Parallel;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.FaultyWakeups;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.Database;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drives N payments over many goals through the real engine and store against the simulators with
 * every fault kind, waits until every flow is terminal or in manual review, then checks the
 * invariants from the database and the simulators' ledgers.
 *
 * <p>Time is compressed ({@link EngineConfig#compressed()}, deadlines of seconds) but the code
 * paths are production's.
 */
public final class ChaosRun {
  private static final String SCENE = "renewal";

  private final ChaosOptions options;
  private final PrintStream progress;
  private final Clock clock = Clock.systemUTC();
  private final Duration archiveEvery;

  public ChaosRun(ChaosOptions options, PrintStream progress) {
    this(options, progress, null);
  }

  private ChaosRun(ChaosOptions options, PrintStream progress, Duration archiveEvery) {
    this.options = options;
    this.progress = progress;
    this.archiveEvery = archiveEvery;
  }

  /**
   * This run with the retention job archiving every ended flow every {@code every} while payments
   * are driven; the invariants are then checked over the hot and the archive tables together.
   */
  public ChaosRun archivingMidRun(Duration every) {
    return new ChaosRun(options, progress, every);
  }

  /** Result of a run: the verdict plus a few human-readable examples of violations. */
  public record Report(Verdict verdict, List<String> examples, String faultSummary) {}

  public Report run() {
    long started = System.currentTimeMillis();
    int pool = Math.max(8, options.concurrency() * 2 + 4);
    try (Database db = ChaosDatabase.open(options.jdbcUrl(), pool)) {
      FaultPlan plan = new FaultPlan(options.seed(), options.faultRate());
      EngineConfig config = EngineConfig.compressed();
      SimWallet wallet = new SimWallet(plan, clock, config.lease().plusMillis(500));
      SimBusiness business = new SimBusiness(plan, clock);
      ChaosEvents events = new ChaosEvents();
      AtomicLong crashes = new AtomicLong();
      List<FaultyWakeups> faultyWakeups = new ArrayList<>();
      List<EngineAssembly> engines =
          startEngines(db, plan, config, wallet, business, events, crashes, faultyWakeups);
      AtomicInteger created = new AtomicInteger();
      Instant giveUp = clock.instant().plusSeconds(options.timeoutSeconds());
      Thread reporter = progressReporter(db, events, created, started);
      MidRunArchiver archiver =
          archiveEvery == null ? null : new MidRunArchiver(db.dataSource(), archiveEvery, clock);
      if (archiver != null) {
        archiver.start();
      }
      drive(engines, business, plan, created, crashes, giveUp);
      waitForConvergence(db, giveUp);
      reporter.interrupt();
      String archived = "";
      if (archiver != null) {
        archiver.close();
        archived =
            String.format(", archived mid-run %d in %d runs", archiver.archived(), archiver.runs());
      }
      engines.forEach(EngineAssembly::close);
      wallet.settleAll();
      FlowSnapshot snapshot = FlowSnapshot.read(db.dataSource());
      InvariantChecker checker = new InvariantChecker();
      Verdict verdict =
          checker.check(
              snapshot,
              wallet.ledger(),
              business.grants(),
              options.payments(),
              System.currentTimeMillis() - started);
      if (options.out() != null) {
        CsvExport.write(options.out(), snapshot, wallet.ledger(), business.grants());
      }
      return new Report(
          verdict, checker.examples(), faultSummary(crashes, faultyWakeups, events) + archived);
    }
  }

  /**
   * Two engine instances on one database stand for two processes: separate workers, scanners and
   * wake-up queues, sharing only the rows. Each wake-up queue loses, duplicates and delays by the
   * plan; each worker death is counted in {@code crashes}.
   */
  private List<EngineAssembly> startEngines(
      Database db,
      FaultPlan plan,
      EngineConfig config,
      SimWallet wallet,
      SimBusiness business,
      ChaosEvents events,
      AtomicLong crashes,
      List<FaultyWakeups> faultyWakeups) {
    // Injected crashes are counted; any other failure of a loop is reported.
    WorkerFailures logged = WorkerFailures.systemLogger();
    Supervision supervision =
        new Supervision(
            (loop, cause) -> {
              if (!(cause instanceof SimulatedCrash)) {
                logged.failed(loop, cause);
              }
            },
            OverloadEvents.NONE);
    int workers = Math.max(2, options.concurrency() / 2);
    List<EngineAssembly> engines = new ArrayList<>();
    for (String name : new String[] {"a", "b"}) {
      EngineAssembly engine =
          new EngineAssembly(
              db.flowStore(),
              wallet,
              business,
              events,
              config,
              clock,
              "chaos-" + options.seed() + "-" + name,
              workers,
              inner -> {
                FaultyWakeups faulty = new FaultyWakeups(inner, plan);
                faultyWakeups.add(faulty);
                return faulty;
              },
              QueueLimits.defaults(workers),
              supervision);
      engine.runtime().onWorkerDeath((id, t) -> crashes.incrementAndGet());
      engines.add(engine.start());
    }
    return engines;
  }

  private static String faultSummary(
      AtomicLong crashes, List<FaultyWakeups> faultyWakeups, ChaosEvents events) {
    return String.format(
        "worker crashes %d, wake-ups lost %d / duplicated %d / delayed %d, scanner hits %d,"
            + " CAS conflicts %d (contradictions %d), writes refused for a lost lease %d,"
            + " escalations %d, freezes %d",
        crashes.get(),
        faultyWakeups.stream().mapToLong(FaultyWakeups::lost).sum(),
        faultyWakeups.stream().mapToLong(FaultyWakeups::duplicated).sum(),
        faultyWakeups.stream().mapToLong(FaultyWakeups::delayed).sum(),
        events.scannerHits.get(),
        events.casIdempotent.get() + events.casContradiction.get(),
        events.casContradiction.get(),
        events.leasesLost.get(),
        events.escalations.get(),
        events.freezes.get());
  }

  /** Client threads: each takes goals until N attempts exist; some goals get several attempts. */
  private void drive(
      List<EngineAssembly> engines,
      SimBusiness business,
      FaultPlan plan,
      AtomicInteger created,
      AtomicLong crashes,
      Instant giveUp) {
    AtomicInteger nextGoal = new AtomicInteger();
    Parallel.run(
        options.concurrency(),
        "chaos-client",
        c -> {
          while (clock.instant().isBefore(giveUp)) {
            int g = nextGoal.getAndIncrement();
            EngineAssembly engine = engines.get(g % engines.size());
            if (!payGoal(engine, business, plan, g, created, crashes)) {
              return;
            }
          }
        });
  }

  /** Pays one goal; returns false when the run has created all its payments. */
  private boolean payGoal(
      EngineAssembly engine,
      SimBusiness business,
      FaultPlan plan,
      int g,
      AtomicInteger created,
      AtomicLong crashes) {
    String key = "g" + g;
    GoalKey goal =
        GoalKey.ofDefaultMerchant(1_000 + g % 997, SCENE, "R:" + options.seed() + ":" + g);
    if (plan.unit("goal.elsewhere", key, 0) < options.faultRate() / 10) {
      business.grantElsewhere(goal, "legacy_" + g);
    }
    int maxAttempts = 1 + plan.below("goal.attempts", key, 0, 3);
    Instant deadline =
        clock
            .instant()
            .plus(
                plan.duration(
                    "goal.deadline", key, Duration.ofMillis(2_500), Duration.ofMillis(5_000)));
    long amount = 100 + plan.below("goal.amount", key, 0, 50_000);
    for (int attempt = 1; attempt <= maxAttempts; attempt++) {
      if (created.incrementAndGet() > options.payments()) {
        created.decrementAndGet();
        return false;
      }
      Started started;
      try {
        started = engine.payments().start(new NewPayment(goal, amount, "CNY", deadline));
      } catch (SimulatedCrash crash) {
        // The synchronous worker died mid-flow; its lease expires and the scanner takes over.
        crashes.incrementAndGet();
        return true;
      }
      PayFlow flow = started.flow();
      if (!started.created()) {
        created.decrementAndGet();
      }
      if (flow != null && plan.unit("goal.dup", key + "#" + attempt, 0) < options.faultRate() / 3) {
        // A duplicated trigger (a callback or a second consumer) racing the synchronous path.
        engine.runtime().wake(flow.id(), TriggerSource.CALLBACK);
      }
      if (flow == null || flow.status() != FlowStatus.PAY_FAIL) {
        return true;
      }
    }
    return true;
  }

  /** Waits until no flow is open (neither terminal nor in manual review), or gives up. */
  private void waitForConvergence(Database db, Instant giveUp) {
    while (FlowSnapshot.unconverged(db.dataSource()) > 0 && clock.instant().isBefore(giveUp)) {
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Prints one line a second: created, open, and the flows by status, read from the database. */
  private Thread progressReporter(
      Database db, ChaosEvents events, AtomicInteger created, long started) {
    Thread t =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                try {
                  Thread.sleep(1_000);
                } catch (InterruptedException e) {
                  return;
                }
                Map<String, Integer> byStatus = FlowSnapshot.countByStatus(db.dataSource());
                StringBuilder line =
                    new StringBuilder(
                        String.format(
                            "%6.1fs  created %,d/%,d  open %,d  review %,d  scanner hits %,d |",
                            (System.currentTimeMillis() - started) / 1000.0,
                            Math.min(created.get(), options.payments()),
                            options.payments(),
                            byStatus.getOrDefault("open", 0),
                            byStatus.getOrDefault("review", 0),
                            events.scannerHits.get()));
                byStatus.forEach(
                    (status, n) -> {
                      if (!status.equals("open") && !status.equals("review")) {
                        line.append(String.format(" %s %,d", status, n));
                      }
                    });
                progress.println(line);
              }
            },
            "chaos-progress");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
