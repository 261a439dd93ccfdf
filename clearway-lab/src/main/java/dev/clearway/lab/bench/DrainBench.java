package dev.clearway.lab.bench;

import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.engine.RecoveryWorker;
import dev.clearway.core.channel.engine.StaticRecoveryPolicies;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.policy.RecoveryPolicy;
import dev.clearway.core.channel.policy.RecoveryStrategy;
import dev.clearway.core.channel.policy.RuleMatch;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelHealth;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.lab.channel.SimChannels;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.SimPsp;
import dev.clearway.store.Database;
import dev.clearway.store.Sql;
import dev.clearway.store.channel.JdbcChannelStores;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code clearway bench drain --backlog N --qps B}: an outage of a simulated Stripe-style PSP
 * (every response lost after the charge executed) leaves N attempts UNKNOWN; the outage ends; the
 * recovery worker drains the backlog through the channel account's paced budget of B calls per
 * second. Prints the drain time divided by N/B (target at most 1.1) and the peak calls per second
 * the PSP saw, divided by B (target at most 1.05).
 */
public final class DrainBench {

  private DrainBench() {}

  /** Options of {@code clearway bench drain}. */
  public record Options(int backlog, int qps, String jdbcUrl, boolean json) {
    public Options {
      if (backlog < 1 || qps < 1 || qps > 1_000) {
        throw new IllegalArgumentException("need --backlog >= 1 and --qps within 1..1000");
      }
    }
  }

  /** What one run measured. */
  public record Result(
      int backlog,
      int qps,
      double seconds,
      double ratio,
      long peakPerSecond,
      double peakRatio,
      long pspCalls,
      long succeeded) {}

  public static int run(Options o, PrintStream out, PrintStream err) throws InterruptedException {
    try (Database db =
        o.jdbcUrl() == null ? Database.embedded(24) : Database.connect(o.jdbcUrl(), 24)) {
      Result r;
      try {
        r = measure(db, o.backlog(), o.qps(), err);
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException("drain bench failed", e.getCause());
      }
      String synchronousCommit = db.synchronousCommit();
      if (o.json()) {
        out.println(json(r, synchronousCommit));
      } else {
        print(r, out);
        out.println("synchronous_commit  " + synchronousCommit);
      }
      return r.ratio() <= 1.1 && r.peakRatio() <= 1.05 && r.succeeded() == r.backlog() ? 0 : 1;
    }
  }

  /**
   * One JSON line: backlog, qps, seconds, timeRatio, peakPerSecond, peakRatio, pspCalls, succeeded,
   * synchronousCommit (the database's, as {@code SHOW synchronous_commit} gives it).
   */
  static String json(Result r, String synchronousCommit) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("backlog", r.backlog());
    json.put("qps", r.qps());
    json.put("seconds", BenchJson.fixed(r.seconds(), 3));
    json.put("timeRatio", BenchJson.fixed(r.ratio(), 4));
    json.put("peakPerSecond", r.peakPerSecond());
    json.put("peakRatio", BenchJson.fixed(r.peakRatio(), 4));
    json.put("pspCalls", r.pspCalls());
    json.put("succeeded", r.succeeded());
    json.put("synchronousCommit", synchronousCommit);
    return BenchJson.line(json);
  }

  private static void print(Result r, PrintStream out) {
    out.printf(
        Locale.ROOT, "backlog             %,d attempts UNKNOWN after the outage%n", r.backlog());
    out.printf(Locale.ROOT, "budget              %d calls/s on the channel account%n", r.qps());
    out.printf(
        Locale.ROOT,
        "drain time          %.2f s (N/B = %.2f s)%n",
        r.seconds(),
        (double) r.backlog() / r.qps());
    out.printf(Locale.ROOT, "time / (N/B)        %.3f   (target <= 1.1)%n", r.ratio());
    out.printf(
        Locale.ROOT,
        "peak PSP calls/s    %d = %.3f x B   (target <= 1.05)%n",
        r.peakPerSecond(),
        r.peakRatio());
    out.printf(
        Locale.ROOT,
        "PSP recovery calls  %,d; attempts succeeded %,d%n",
        r.pspCalls(),
        r.succeeded());
  }

  public static Result measure(Database db, int backlog, int qps, PrintStream err)
      throws InterruptedException, java.util.concurrent.ExecutionException {
    ChannelStores store = JdbcChannelStores.create(db.dataSource());
    PspFaults faults = new PspFaults(42).lostResponseRate(1.0);
    try (SimChannels channels =
        new SimChannels(
            store,
            List.of(new SimChannels.AccountSpec(1, "psp:stripe-a", 1, faults)),
            Duration.ofMillis(20),
            Duration.ofSeconds(2))) {
      ChannelContext ctx = context(store, channels, qps);
      String run = Long.toString(System.nanoTime(), 36);
      err.printf("drain: outage (responses lost); creating %,d attempts%n", backlog);
      createUnknown(
          new ChannelGateway(ctx, PaymentMethods.fixed("card", "pm_card_visa")), run, backlog);
      SimPsp sim = channels.sim(1);
      faults.lostResponseRate(0);
      Thread.sleep(600); // every task is due (first delay 500 ms)
      sim.queries().reset();
      err.printf("drain: outage over; recovering at %d calls/s%n", qps);
      Sql sql = new Sql(db.dataSource());
      double seconds = drain(ctx, qps, sql, run);
      long succeeded = count(sql, run, AttemptStatus.SUCCEEDED);
      long peak = sim.queries().peakPerSecond();
      return new Result(
          backlog,
          qps,
          seconds,
          seconds / ((double) backlog / qps),
          peak,
          (double) peak / qps,
          sim.queries().total(),
          succeeded);
    }
  }

  /** The channel context of the bench: one Stripe-style card rule paced at {@code qps}. */
  private static ChannelContext context(ChannelStores store, SimChannels channels, int qps) {
    PolicyRule rule =
        new PolicyRule(
            new RuleMatch("stripe", "card", Operation.CREATE),
            List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
            List.of(Duration.ofMillis(500), Duration.ofSeconds(5)),
            Duration.ofHours(2),
            qps,
            32);
    return new ChannelContext(
        store,
        channels::adapter,
        ChannelHealth.ALWAYS,
        new StaticRecoveryPolicies(new RecoveryPolicy("drain-bench", List.of(rule))),
        new PacedRateLimiter(),
        ChannelEvents.NONE,
        Clock.systemUTC(),
        trade -> {},
        Duration.ofSeconds(5));
  }

  /** Pays {@code backlog} orders during the outage; every one must end UNKNOWN. */
  private static void createUnknown(ChannelGateway gateway, String run, int backlog)
      throws InterruptedException, java.util.concurrent.ExecutionException {
    ExecutorService creators = Executors.newFixedThreadPool(64);
    List<Future<Certainty>> created = new ArrayList<>();
    for (int i = 0; i < backlog; i++) {
      String trade = "t_drain_" + run + "_" + i;
      created.add(
          creators.submit(
              () -> gateway.pay(new ChargeRequest(trade, 1, 1_000, "EUR")).certainty()));
    }
    long unknown = 0;
    for (Future<Certainty> f : created) {
      if (f.get() == Certainty.UNKNOWN) {
        unknown++;
      }
    }
    creators.shutdown();
    if (unknown != backlog) {
      throw new IllegalStateException("expected every create UNKNOWN, got " + unknown);
    }
  }

  /** Runs the recovery worker until no attempt of the run is live; returns the seconds it took. */
  private static double drain(ChannelContext ctx, int qps, Sql sql, String run)
      throws InterruptedException {
    RecoveryWorker worker =
        new RecoveryWorker(ctx, new RecoveryWorker.Settings("drain", qps, Duration.ofSeconds(45)));
    ExecutorService pool = Executors.newFixedThreadPool(32);
    AtomicBoolean done = new AtomicBoolean();
    Thread loop =
        new Thread(
            () -> {
              while (!done.get()) {
                if (worker.runOnce(pool) == 0) {
                  sleep(20);
                }
              }
            },
            "drain-recovery");
    long start = System.nanoTime();
    loop.start();
    while (live(sql, run) > 0) {
      sleep(20);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    done.set(true);
    loop.join();
    pool.shutdown();
    return seconds;
  }

  private static long live(Sql sql, String run) {
    return sql.query(
            "SELECT count(*) FROM payment_attempt WHERE trade_order_no LIKE ?"
                + " AND status IN ('CREATED', 'PENDING', 'UNKNOWN')",
            ps -> ps.setString(1, "t_drain_" + run + "_%"),
            rs -> rs.getLong(1))
        .get(0);
  }

  private static long count(Sql sql, String run, AttemptStatus status) {
    return sql.query(
            "SELECT count(*) FROM payment_attempt WHERE trade_order_no LIKE ? AND status = ?",
            ps -> {
              ps.setString(1, "t_drain_" + run + "_%");
              ps.setString(2, status.name());
            },
            rs -> rs.getLong(1))
        .get(0);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
