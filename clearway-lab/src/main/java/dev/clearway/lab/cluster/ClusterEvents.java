package dev.clearway.lab.cluster;

import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What happens to the cluster while the load runs, in one thread: every {@code killEvery} seconds a
 * random live node (from the run's seed) is killed with SIGKILL and started again; once a third of
 * the payments were sent PostgreSQL is restarted, once half were sent RabbitMQ, and once two thirds
 * were sent the wallet goes down for a while, after which its backlog must come back within budget.
 */
final class ClusterEvents implements Runnable {
  static final int OUTAGE_SECONDS = 8;

  private final List<EngineNode> nodes;
  private final PaymentLoad load;
  private final int payments;
  private final int killEverySeconds;
  private final Random random;
  private final ServerRestarts restarts;
  private final ClusterDatabase database;
  private final SimWorld sim;
  private final PrintStream progress;
  private final AtomicInteger kills = new AtomicInteger();
  private volatile boolean stopped;
  private boolean postgresStarted;
  private boolean brokerStarted;
  private final List<Thread> background = new java.util.ArrayList<>();
  private volatile ServerRestarts.Outcome postgres;
  private volatile ServerRestarts.Outcome broker;
  private volatile Instant outageEnd;

  ClusterEvents(ClusterRig rig, PaymentLoad load, ClusterOptions options, ServerRestarts restarts) {
    this.nodes = rig.nodes();
    this.load = load;
    this.payments = options.payments();
    this.killEverySeconds = options.killEverySeconds();
    this.random = new Random(options.seed());
    this.restarts = restarts;
    this.database = rig.database();
    this.sim = rig.sim();
    this.progress = rig.progress();
  }

  @Override
  public void run() {
    long nextKill =
        killEverySeconds > 0
            ? System.nanoTime() + killEverySeconds * 1_000_000_000L
            : Long.MAX_VALUE;
    while (!stopped) {
      double sent = load.sent() / (double) payments;
      if (!postgresStarted && sent >= 1 / 3.0) {
        postgresStarted = true;
        background("postgres-restart", () -> postgres = restartPostgres());
      }
      if (!brokerStarted && sent >= 0.5) {
        brokerStarted = true;
        background(
            "broker-restart",
            () -> {
              progress.println("cluster-chaos: restarting RabbitMQ");
              ServerRestarts.Outcome outcome = restarts.restartRabbitMq();
              progress.println("cluster-chaos: " + outcome.detail());
              broker = outcome;
            });
      }
      if (outageEnd == null && sent >= 2 / 3.0) {
        progress.println("cluster-chaos: the wallet goes down for " + OUTAGE_SECONDS + " s");
        sim.walletOutage(OUTAGE_SECONDS);
        outageEnd = Instant.now().plusSeconds(OUTAGE_SECONDS);
      }
      if (System.nanoTime() >= nextKill) {
        killOne();
        nextKill = System.nanoTime() + killEverySeconds * 1_000_000_000L;
      }
      sleep(200);
    }
  }

  private ServerRestarts.Outcome restartPostgres() {
    if (!database.restartable()) {
      return new ServerRestarts.Outcome(
          false, "PostgreSQL is not the machine's server (embedded or remote): not restarted");
    }
    progress.println("cluster-chaos: restarting PostgreSQL");
    ServerRestarts.Outcome outcome = restarts.restartPostgres();
    progress.println("cluster-chaos: " + outcome.detail());
    return outcome;
  }

  /**
   * SIGKILL to a random serving node, then the same node started again on its port. A node still
   * starting is left alone, so that every kill takes down a node that was doing work; and while
   * only one node serves, none is killed (with several nodes), so that the clients always have a
   * node to retry on: the run proves that a death loses nothing, not that a cluster with no node
   * left serves.
   */
  private void killOne() {
    List<EngineNode> alive = nodes.stream().filter(EngineNode::ready).toList();
    if (alive.isEmpty() || (nodes.size() > 1 && alive.size() < 2)) {
      return;
    }
    EngineNode victim = alive.get(random.nextInt(alive.size()));
    victim.kill9();
    kills.incrementAndGet();
    progress.println("cluster-chaos: kill -9 " + victim.name() + "; starting it again");
    victim.start();
  }

  /** A restart runs beside the kills, which go on meanwhile. */
  private void background(String name, Runnable restart) {
    Thread t = new Thread(restart, name);
    t.start();
    background.add(t);
  }

  /** Stops the kills; the thread running this ends within a moment. */
  void stop() {
    stopped = true;
  }

  /** Waits for a restart still running; call after this thread ended. */
  void awaitRestarts() throws InterruptedException {
    for (Thread t : background) {
      t.join();
    }
  }

  int kills() {
    return kills.get();
  }

  ServerRestarts.Outcome postgres() {
    return postgres;
  }

  ServerRestarts.Outcome broker() {
    return broker;
  }

  /** When the wallet's outage ended (null: it never went down). */
  Instant outageEnd() {
    return outageEnd;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
