package dev.clearway.lab.cluster;

import dev.clearway.lab.chaos.CsvExport;
import dev.clearway.lab.chaos.FlowSnapshot;
import dev.clearway.lab.chaos.InvariantChecker;
import dev.clearway.lab.chaos.Verdict;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.LedgerEntry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * {@code clearway cluster-chaos}: the simulator process and N engine nodes as JVMs of their own on
 * one PostgreSQL and one RabbitMQ; payments through the nodes' APIs while nodes are killed with
 * SIGKILL, PostgreSQL and RabbitMQ restarted once each and the wallet taken down once; then, the
 * load stopped, a bounded wait for convergence and every invariant checked from the database and
 * the simulators' ledgers alone.
 */
public final class ClusterChaos {
  private final ClusterOptions options;
  private final PrintStream progress;

  public ClusterChaos(ClusterOptions options, PrintStream progress) {
    this.options = options;
    this.progress = progress;
  }

  /** The run's result: its JSON line and whether it passed. */
  public record Result(String json, boolean passed, List<String> examples) {}

  public Result run() throws InterruptedException {
    long started = System.currentTimeMillis();
    Path logs = logs();
    try (ClusterRig rig = ClusterRig.start(options, logs, progress)) {
      PaymentLoad load =
          new PaymentLoad(rig.nodes(), rig.merchantKey(), options.seed(), options.payments());
      ClusterEvents events = new ClusterEvents(rig, load, options, new ServerRestarts(logs));
      Thread chaos = new Thread(events, "cluster-events");
      chaos.start();
      Thread reporter = reporter(rig, load, events, started);
      long loadStarted = System.nanoTime();
      load.run(options.concurrency());
      double loadSeconds = (System.nanoTime() - loadStarted) / 1e9;
      events.stop();
      chaos.join();
      events.awaitRestarts();
      progress.println("cluster-chaos: load done; waiting for convergence");
      rig.allUp();
      boolean converged = awaitConvergence(rig.database().database().dataSource());
      reporter.interrupt();
      double peak = outagePeakRatio(rig.sim(), events.outageEnd());
      rig.scrapeAll();
      rig.nodes().forEach(EngineNode::stop);
      return verdict(rig, load, events, loadSeconds, peak, started, converged);
    }
  }

  private Result verdict(
      ClusterRig rig,
      PaymentLoad load,
      ClusterEvents events,
      double loadSeconds,
      double peak,
      long started,
      boolean converged) {
    List<LedgerEntry> ledger = rig.sim().walletLedger();
    List<GrantEntry> grants = rig.sim().businessLedger();
    DataSource ds = rig.database().database().dataSource();
    FlowSnapshot snapshot = FlowSnapshot.read(ds);
    InvariantChecker checker = new InvariantChecker();
    Verdict verdict =
        checker.check(
            snapshot,
            ledger,
            grants,
            snapshot.flows().size(),
            System.currentTimeMillis() - started);
    int duplicates = duplicateFlowsPerKey(snapshot);
    if (options.out() != null) {
      CsvExport.write(options.out(), snapshot, ledger, grants);
    }
    ClusterReport report =
        new ClusterReport(options, verdict, load, events, rig, duplicates, peak, loadSeconds);
    boolean passed =
        converged
            && verdict.passed()
            && duplicates == 0
            && load.accepted() == options.payments()
            && verdict.payments() == options.payments()
            && peak <= 1.05;
    return new Result(report.toJson(), passed, checker.examples());
  }

  /** Flows beyond the first per goal: each goal was paid once, under one Idempotency-Key. */
  static int duplicateFlowsPerKey(FlowSnapshot snapshot) {
    Map<String, Long> perGoal =
        snapshot.flows().stream()
            .collect(
                java.util.stream.Collectors.groupingBy(
                    FlowSnapshot.FlowRow::goalId, java.util.stream.Collectors.counting()));
    return (int) perGoal.values().stream().mapToLong(n -> n - 1).sum();
  }

  /**
   * The highest calls per second the wallet received from the end of its outage on, divided by its
   * budget; 0 when the wallet never went down.
   */
  private double outagePeakRatio(SimWorld sim, Instant outageEnd) {
    if (outageEnd == null) {
      return 0;
    }
    long from = outageEnd.getEpochSecond() + 1;
    int peak =
        sim.walletCallsPerSecond().entrySet().stream()
            .filter(e -> e.getKey() >= from)
            .mapToInt(Map.Entry::getValue)
            .max()
            .orElse(0);
    return peak / (double) options.walletQps();
  }

  private boolean awaitConvergence(DataSource ds) throws InterruptedException {
    Instant end = Instant.now().plusSeconds(options.timeoutSeconds());
    while (Instant.now().isBefore(end)) {
      try {
        if (FlowSnapshot.unconverged(ds) == 0) {
          return true;
        }
      } catch (IllegalStateException databaseBusy) {
        // Try again: the database may still be coming back.
      }
      Thread.sleep(1_000);
    }
    return false;
  }

  private Thread reporter(ClusterRig rig, PaymentLoad load, ClusterEvents events, long started) {
    Thread t =
        new Thread(
            () -> {
              try {
                while (!Thread.currentThread().isInterrupted()) {
                  Thread.sleep(2_000);
                  rig.scrapeAll();
                  progress.printf(
                      "cluster-chaos: %5.0fs sent %,d accepted %,d retries %,d kills %d | %s%n",
                      (System.currentTimeMillis() - started) / 1000.0,
                      load.sent(),
                      load.accepted(),
                      load.clientRetries(),
                      events.kills(),
                      counts(rig));
                }
              } catch (InterruptedException e) {
                // The run is over.
              }
            },
            "cluster-progress");
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static String counts(ClusterRig rig) {
    try {
      return FlowSnapshot.countByStatus(rig.database().database().dataSource()).toString();
    } catch (IllegalStateException e) {
      return "database unreachable";
    }
  }

  private Path logs() {
    try {
      return options.out() != null
          ? options.out().resolve("logs")
          : Files.createTempDirectory("clearway-cluster-");
    } catch (IOException e) {
      throw new UncheckedIOException("create a log directory", e);
    }
  }
}
