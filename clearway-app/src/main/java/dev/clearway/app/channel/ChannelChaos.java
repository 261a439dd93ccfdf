package dev.clearway.app.channel;

import dev.clearway.channels.health.CircuitBreakerHealth;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.CompensationWorker;
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
import dev.clearway.core.port.WalletGateway.ChargeRequest;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.PspFaults.Outage;
import dev.clearway.store.Sql;
import dev.clearway.store.channel.JdbcChannelStore;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The chaos run's channel scenarios (issue 5), deterministic in fault assignment from the seed:
 * three Stripe-style accounts in three failure domains over real HTTP. Account A has an outage
 * (definite "channel_unavailable", then a black hole whose results are UNKNOWN and must not fail
 * over); B loses responses and sometimes lies (answers a definite failure, charges anyway); C
 * answers stored 500s. Some cards are declined, some settle asynchronously; webhooks are duplicated
 * and delayed, racing two recovery workers; a crashed worker's leases are taken over. The verdict
 * comes from {@link ChannelInvariants}.
 */
public final class ChannelChaos {

  /** The verdict and the counts behind it. */
  public record Report(
      int payments,
      long seed,
      List<ChannelInvariants.Violation> violations,
      Map<String, Long> counts,
      Map<String, Double> metrics,
      double seconds) {
    public boolean passed() {
      return violations.isEmpty();
    }

    public String toJson() {
      StringBuilder json = new StringBuilder("{\"scenario\":\"channels\",\"payments\":");
      json.append(payments).append(",\"seed\":").append(seed);
      json.append(",\"violations\":").append(violations.size());
      counts.forEach((k, v) -> json.append(",\"").append(k).append("\":").append(v));
      json.append(String.format(java.util.Locale.ROOT, ",\"seconds\":%.1f}", seconds));
      return json.toString();
    }
  }

  private final DataSource dataSource;
  private final int payments;
  private final long seed;
  private final PrintStream err;
  private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

  public ChannelChaos(DataSource dataSource, int payments, long seed, PrintStream err) {
    this.dataSource = dataSource;
    this.payments = payments;
    this.seed = seed;
    this.err = err;
  }

  private void count(String name) {
    counts.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
  }

  public Report run() throws InterruptedException {
    long started = System.nanoTime();
    JdbcChannelStore store = new JdbcChannelStore(dataSource);
    PspFaults a = new PspFaults(seed).lostResponseRate(0.05).webhookDuplicateRate(0.3);
    PspFaults b = new PspFaults(seed + 1).lostResponseRate(0.1).lieRate(0.05);
    PspFaults c = new PspFaults(seed + 2).error500Rate(0.05).lostResponseRate(0.05);
    for (PspFaults f : List.of(a, b, c)) {
      f.webhookDuplicateRate(0.3).webhookDelayMaxMillis(300);
    }
    String prefix = "t_ch_" + seed + "_" + Long.toString(System.nanoTime(), 36) + "_";
    FaultPlan plan = new FaultPlan(seed, 1);
    try (SimChannels channels =
        new SimChannels(
            store,
            List.of(
                new SimChannels.AccountSpec(11, "psp:a", 1, a),
                new SimChannels.AccountSpec(12, "psp:b", 2, b),
                new SimChannels.AccountSpec(13, "psp:c", 3, c)),
            Duration.ofMillis(100),
            Duration.ofSeconds(2))) {
      io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
          new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
      ChannelEvents metrics =
          new dev.clearway.app.metrics.MicrometerChannelEvents(registry, store, Clock.systemUTC());
      ChannelEvents events =
          new ChannelEvents() {
            @Override
            public void pspAnswer(
                long account,
                String operation,
                dev.clearway.core.channel.spi.ResultCertainty certainty) {
              metrics.pspAnswer(account, operation, certainty);
            }

            @Override
            public void failoverDenied(String reason) {
              metrics.failoverDenied(reason);
              count("failoverDenied_" + reason);
            }

            @Override
            public void failover(long from, long to) {
              metrics.failover(from, to);
              count("failovers");
            }

            @Override
            public void multipleSuccess(String trade) {
              metrics.multipleSuccess(trade);
              count("chargedAfterFailure");
            }

            @Override
            public void concurrentlyResolved() {
              count("lostRaces");
            }
          };
      PolicyRule rule =
          new PolicyRule(
              new RuleMatch("stripe", "card", Operation.CREATE),
              List.of(RecoveryStrategy.IDEMPOTENT_REPLAY, RecoveryStrategy.RETRIEVE),
              List.of(Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1)),
              // Short, so that what stays unknowable (a stored 500 that never executed: replays
              // answer 500, search finds nothing) reaches its exit, a manual case, within the run.
              Duration.ofSeconds(15),
              200,
              16);
      ChannelContext ctx =
          new ChannelContext(
              store,
              channels::adapter,
              new CircuitBreakerHealth(20, 50f, Duration.ofSeconds(2)),
              new StaticRecoveryPolicies(new RecoveryPolicy("chaos", List.of(rule))),
              new PacedRateLimiter(),
              events,
              Clock.systemUTC(),
              trade -> {},
              Duration.ofSeconds(3));
      PaymentMethods methods =
          request -> {
            double u = plan.unit("method", request.tradeOrderNo(), 0);
            String token =
                u < 0.05 ? "pm_card_chargeDeclined" : u < 0.10 ? "pm_card_async" : "pm_card_visa";
            return new PaymentMethods.Choice("card", token);
          };
      ChannelGateway gateway = new ChannelGateway(ctx, methods);
      try (WebhookReceiver receiver = new WebhookReceiver(new ChannelWebhookIntake(ctx))) {
        channels.sims().forEach((id, sim) -> sim.webhookTarget(receiver.target(id)));
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Thread> loops = new ArrayList<>();
        for (String owner : List.of("w1", "w2")) {
          RecoveryWorker worker =
              new RecoveryWorker(
                  ctx, new RecoveryWorker.Settings(owner, 50, Duration.ofSeconds(5)));
          loops.add(loop(owner, stop, () -> worker.runOnce(pool)));
        }
        CompensationWorker compensation = new CompensationWorker(ctx);
        loops.add(loop("compensation", stop, () -> compensation.runOnce(20)));
        ExecutorService clients = Executors.newFixedThreadPool(16);
        for (int i = 0; i < payments; i++) {
          phase(i, a);
          String trade = prefix + i;
          clients.submit(
              () -> {
                gateway.pay(new ChargeRequest(trade, 1, 1_000, "EUR"));
                count("payments");
              });
          if (i == 3 * payments / 5 - 1) {
            crashAWorker(store);
          }
          Thread.sleep(2);
        }
        clients.shutdown();
        clients.awaitTermination(2, TimeUnit.MINUTES);
        a.outage(Outage.NONE);
        boolean converged = awaitConvergence(prefix, Duration.ofSeconds(120));
        Thread.sleep(1_500); // late webhooks (lies revealed) and their compensations
        awaitConvergence(prefix, Duration.ofSeconds(30));
        stop.set(true);
        for (Thread t : loops) {
          t.join();
        }
        pool.shutdownNow();
        List<PspCharge> ledger = new ArrayList<>();
        channels.sims().values().forEach(sim -> ledger.addAll(sim.ledger()));
        List<ChannelInvariants.Violation> violations =
            new ChannelInvariants(dataSource).check(ledger, prefix);
        if (!converged) {
          err.println("channels chaos: did not converge in time");
        }
        Map<String, Long> snapshot = new java.util.TreeMap<>();
        counts.forEach((k, v) -> snapshot.put(k, v.get()));
        snapshot.putAll(summary(prefix));
        Map<String, Double> meters = new java.util.TreeMap<>();
        meters.put(
            "clearway.channel.failovers", registry.counter("clearway.channel.failovers").count());
        meters.put(
            "unknownAnswers",
            registry
                .find("clearway.channel.psp.answers")
                .tag("certainty", "UNKNOWN")
                .counters()
                .stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count)
                .sum());
        return new Report(
            payments, seed, violations, snapshot, meters, (System.nanoTime() - started) / 1e9);
      }
    }
  }

  /** Account A: definite outage for the 2nd fifth of payments, black hole for the 3rd. */
  private void phase(int i, PspFaults a) {
    int fifth = Math.max(1, payments / 5);
    Outage wanted =
        i < fifth
            ? Outage.NONE
            : i < 2 * fifth ? Outage.UNAVAILABLE : i < 3 * fifth ? Outage.BLACKHOLE : Outage.NONE;
    if (a.outage() != wanted) {
      err.println("channels chaos: account A outage " + wanted + " from payment " + i);
      a.outage(wanted);
    }
  }

  /** A worker claims a batch with a short lease and dies: the others must take over. */
  private void crashAWorker(JdbcChannelStore store) {
    int taken =
        store
            .claimDue(
                "crashed-worker",
                20,
                Duration.ofSeconds(1),
                Clock.systemUTC().instant().plusSeconds(3)) // also tasks about to fall due
            .size();
    counts.computeIfAbsent("leasesAbandoned", k -> new AtomicLong()).addAndGet(taken);
  }

  private boolean awaitConvergence(String prefix, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    Sql sql = new Sql(dataSource);
    while (System.nanoTime() < deadline) {
      long open =
          sql.query(
                  """
                  SELECT (SELECT count(*) FROM payment_attempt a WHERE trade_order_no LIKE ?
                          AND status IN ('CREATED', 'PENDING', 'UNKNOWN')
                          AND NOT EXISTS (SELECT 1 FROM recovery_task t
                                          WHERE t.attempt_id = a.id AND t.status = 'MANUAL'))
                       + (SELECT count(*) FROM attempt_compensation WHERE trade_order_no LIKE ?
                          AND status = 'PENDING')
                  """,
                  ps -> {
                    ps.setString(1, prefix + "%");
                    ps.setString(2, prefix + "%");
                  },
                  rs -> rs.getLong(1))
              .get(0);
      if (open == 0) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  private Map<String, Long> summary(String prefix) {
    Sql sql = new Sql(dataSource);
    Map<String, Long> out = new java.util.TreeMap<>();
    sql.query(
        "SELECT status || '_' || origin, count(*) FROM payment_attempt WHERE trade_order_no LIKE ?"
            + " GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("attempts_" + rs.getString(1), rs.getLong(2)));
    sql.query(
        "SELECT count(*) FROM payment_attempt_history h JOIN payment_attempt a ON a.id = h.attempt_id"
            + " WHERE a.trade_order_no LIKE ? AND h.from_status = 'UNKNOWN'",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("resolvedFromUnknown", rs.getLong(1)));
    sql.query(
        "SELECT status, count(*) FROM attempt_compensation WHERE trade_order_no LIKE ? GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("compensation_" + rs.getString(1), rs.getLong(2)));
    sql.query(
        "SELECT count(*) FROM recovery_task t JOIN payment_attempt a ON a.id = t.attempt_id"
            + " WHERE a.trade_order_no LIKE ? AND t.status = 'MANUAL'",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put("manualTasks", rs.getLong(1)));
    return out;
  }

  private static Thread loop(
      String name, AtomicBoolean stop, java.util.function.IntSupplier round) {
    Thread t =
        new Thread(
            () -> {
              while (!stop.get()) {
                int n;
                try {
                  n = round.getAsInt();
                } catch (RuntimeException e) {
                  n = 0;
                }
                if (n == 0) {
                  try {
                    Thread.sleep(20);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            },
            "chaos-" + name);
    t.start();
    return t;
  }
}
