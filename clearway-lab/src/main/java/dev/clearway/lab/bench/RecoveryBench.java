package dev.clearway.lab.bench;

import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.store.Database;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code clearway bench recovery --flows N --threads T}: the recovery path (scanner and workers
 * moving N due PAYING flows to BIZ_SUCCESS) next to db-scheduler executing N no-op one-time tasks,
 * same database, same threads, same run. Prints flows/s, transitions/s, db-scheduler's executions/s
 * and recoveryRatio = transitions/s ÷ executions/s (target at least 1.0). Each leg first runs a
 * tenth of N (at most 2,000) untimed, so that neither is measured cold.
 */
public final class RecoveryBench {
  private RecoveryBench() {}

  /**
   * Options of {@code clearway bench recovery}.
   *
   * @param jdbcUrl an existing PostgreSQL server for both legs (its tables are emptied), or null:
   *     an embedded one
   */
  public record Options(int flows, int threads, String jdbcUrl, boolean json) {
    public Options {
      if (flows < 1 || flows > 1_000_000 || threads < 1 || threads > 64) {
        throw new IllegalArgumentException(
            "need --flows within 1..1000000, --threads within 1..64");
      }
    }
  }

  /** What one run measured. */
  record Result(
      RecoveryFlows.Result clearway, DbSchedulerPeer.Result peer, String synchronousCommit) {
    double ratio() {
      return clearway.transitionsPerSec() / peer.executionsPerSec();
    }

    boolean complete() {
      return clearway.bizSuccess() == clearway.flows()
          && peer.executed() == peer.tasks()
          && peer.left() == 0;
    }
  }

  public static int run(Options o, PrintStream out, PrintStream err) throws InterruptedException {
    try (Database db =
        o.jdbcUrl() == null
            ? Database.embedded(o.threads() + 8)
            : Database.connect(o.jdbcUrl(), o.threads() + 8)) {
      Duration limit = Duration.ofSeconds(120 + o.flows() / 50);
      RecoveryFlows clearway = new RecoveryFlows(db, o.threads(), EngineConfig.production(), limit);
      DbSchedulerPeer peer = new DbSchedulerPeer(db, o.threads(), limit);
      int warmup = Math.max(1, Math.min(2_000, o.flows() / 10));
      err.printf("recovery: warm-up, %,d flows and %,d db-scheduler tasks%n", warmup, warmup);
      clearway.run(warmup);
      peer.run(warmup);
      err.printf(
          "recovery: %,d due PAYING flows, scanner and %d workers%n", o.flows(), o.threads());
      RecoveryFlows.Result c = clearway.run(o.flows());
      err.printf("recovery: db-scheduler, %,d no-op tasks, %d threads%n", o.flows(), o.threads());
      DbSchedulerPeer.Result p = peer.run(o.flows());
      // Both legs run on this one server, durable: a commit is answered once its WAL is written.
      Result r = new Result(c, p, db.synchronousCommit());
      print(r, out);
      if (o.json()) {
        out.println(json(r));
      }
      return r.complete() ? 0 : 1;
    }
  }

  /**
   * One JSON line: flowsPerSec, transitionsPerSec, dbSchedulerExecutionsPerSec, recoveryRatio, and
   * the server's synchronousCommit that both legs ran with.
   */
  static String json(Result r) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("flowsPerSec", BenchJson.fixed(r.clearway().flowsPerSec(), 2));
    json.put("transitionsPerSec", BenchJson.fixed(r.clearway().transitionsPerSec(), 2));
    json.put("dbSchedulerExecutionsPerSec", BenchJson.fixed(r.peer().executionsPerSec(), 2));
    json.put("recoveryRatio", BenchJson.fixed(r.ratio(), 4));
    json.put("synchronousCommit", r.synchronousCommit());
    return BenchJson.line(json);
  }

  private static void print(Result r, PrintStream out) {
    RecoveryFlows.Result c = r.clearway();
    DbSchedulerPeer.Result p = r.peer();
    out.printf(
        Locale.ROOT,
        "flows               %,d PAYING -> %,d BIZ_SUCCESS in %.2f s%n",
        c.flows(),
        c.bizSuccess(),
        c.seconds());
    out.printf(Locale.ROOT, "flows/s             %.1f%n", c.flowsPerSec());
    out.printf(
        Locale.ROOT,
        "transitions/s       %.1f (%,d history rows)%n",
        c.transitionsPerSec(),
        c.transitions());
    out.printf(
        Locale.ROOT,
        "db-scheduler        %,d of %,d no-op tasks in %.2f s, %,d left%n",
        p.executed(),
        p.tasks(),
        p.seconds(),
        p.left());
    out.printf(Locale.ROOT, "db-scheduler exec/s %.1f%n", p.executionsPerSec());
    out.printf(Locale.ROOT, "recoveryRatio       %.3f   (target >= 1.0)%n", r.ratio());
    out.println("synchronous_commit  " + r.synchronousCommit());
  }
}
