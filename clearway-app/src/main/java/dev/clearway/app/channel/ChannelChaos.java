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
import dev.clearway.core.fact.WalletResult;
import dev.clearway.core.port.WalletGateway.ChargeRequest;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.PspFaults.Outage;
import dev.clearway.sim.psp.wechat.PayerChoice;
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
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The chaos run's channel scenarios (issue 5), deterministic in fault assignment from the seed:
 * three Stripe-style accounts (method {@code card}) and two WeChat Pay v3-style accounts (method
 * {@code wallet}), each in its own failure domain, over real HTTP. A seeded share of the payments
 * ({@link #WALLET_SHARE}) pays by wallet, the rest by card.
 *
 * <p>Stripe: account A has an outage (definite "channel_unavailable", then a black hole whose
 * results are UNKNOWN and must not fail over); B loses responses and sometimes lies (answers a
 * definite failure, charges anyway); C answers stored 500s. Some cards are declined, some settle
 * asynchronously.
 *
 * <p>WeChat: wx-a loses responses (creates, queries, closes) and has an UNAVAILABLE outage phase,
 * so wallet payments fail over to wx-b; wx-b sometimes lies. The simulated customer pays a native
 * order shortly after it is created, and for a seeded small share never pays or fails to pay: those
 * attempts wait for the customer (PENDING) until the driver closes their orders as the flow engine
 * would at its deadline ({@link #CLOSE_AFTER}); a customer who paid meanwhile makes the close
 * answer ALREADY_PAID.
 *
 * <p>Webhooks of both channels are duplicated and delayed, racing two recovery workers; a crashed
 * worker's leases are taken over. At the end the PSPs' ledgers are reconciled as settlement reports
 * ({@link LedgerReconciliation}): a charge on a FAILED attempt that the other paths missed is
 * compensated then, and counted ({@code reconciledCharges}). The verdict comes from {@link
 * ChannelInvariants}.
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

  /** The share of payments made by wallet (WeChat Pay), the rest by card (Stripe). */
  static final double WALLET_SHARE = 0.4;

  /** When the driver closes a wallet order whose attempt is still live (the flow's deadline). */
  static final Duration CLOSE_AFTER = Duration.ofSeconds(5);

  /** Payments in flight at once: the outage phases follow the payments actually being made. */
  private static final int CLIENTS = 16;

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
    // WeChat's lost responses are rolled per (operation, out_trade_no / out_refund_no): every call
    // of that operation on that number loses its answer. The liar (whose charges are refunded)
    // therefore loses none, so that each refund is answered.
    PspFaults wxA = new PspFaults(seed + 3).lostResponseRate(0.05);
    PspFaults wxB = new PspFaults(seed + 4).lieRate(0.1);
    for (PspFaults f : List.of(a, b, c, wxA, wxB)) {
      f.webhookDuplicateRate(0.3).webhookDelayMaxMillis(300);
    }
    SimChannels.WechatCustomer customer =
        new SimChannels.WechatCustomer(
            PayerChoice.seeded(seed, 0.03, 0.05), Duration.ofMillis(300));
    String prefix = "t_ch_" + seed + "_" + Long.toString(System.nanoTime(), 36) + "_";
    FaultPlan plan = new FaultPlan(seed, 1);
    try (SimChannels channels =
        new SimChannels(
            store,
            List.of(
                new SimChannels.AccountSpec(11, "psp:a", 1, a),
                new SimChannels.AccountSpec(12, "psp:b", 2, b),
                new SimChannels.AccountSpec(13, "psp:c", 3, c),
                SimChannels.AccountSpec.wechat(31, "psp:wx-a", 1, wxA, customer),
                SimChannels.AccountSpec.wechat(32, "psp:wx-b", 2, wxB, customer)),
            Duration.ofMillis(100),
            Duration.ofSeconds(2))) {
      Map<Long, String> channelOf = new java.util.HashMap<>();
      channels.accounts().forEach(acc -> channelOf.put(acc.id(), acc.channel()));
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
              count(channelOf.getOrDefault(from, "other") + "_failovers");
            }

            @Override
            public void multipleSuccess(String trade) {
              metrics.multipleSuccess(trade);
              count("chargedAfterFailure");
              count(channelFor(family(plan, trade)) + "_chargedAfterFailure");
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
      // WeChat: the query by out_trade_no is authoritative, a replay re-creates with the same
      // number (same answer), notifications are authoritative. A customer who never pays keeps
      // the attempt PENDING until the order is closed, well within the same maximum age.
      PolicyRule wechatRule =
          new PolicyRule(
              new RuleMatch("wechat", "wallet", Operation.CREATE),
              List.of(
                  RecoveryStrategy.MERCHANT_REFERENCE_SEARCH,
                  RecoveryStrategy.IDEMPOTENT_REPLAY,
                  RecoveryStrategy.WAIT_WEBHOOK),
              List.of(Duration.ofMillis(200), Duration.ofMillis(500), Duration.ofSeconds(1)),
              Duration.ofSeconds(15),
              200,
              16);
      ChannelContext ctx =
          new ChannelContext(
              store,
              channels::adapter,
              new CircuitBreakerHealth(20, 50f, Duration.ofSeconds(2)),
              new StaticRecoveryPolicies(new RecoveryPolicy("chaos", List.of(rule, wechatRule))),
              new PacedRateLimiter(),
              events,
              Clock.systemUTC(),
              trade -> {},
              Duration.ofSeconds(3));
      PaymentMethods methods =
          request -> {
            if (family(plan, request.tradeOrderNo()).equals("wallet")) {
              return new PaymentMethods.Choice("wallet", "wallet");
            }
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
        Map<String, Long> closeTried = new ConcurrentHashMap<>();
        loops.add(loop("closer", stop, () -> closeOverdue(gateway, prefix, closeTried), 200));
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        Semaphore inFlight = new Semaphore(CLIENTS);
        boolean converged;
        try {
          for (int i = 0; i < payments; i++) {
            phase(i, a);
            wechatPhase(i, wxA);
            String trade = prefix + i;
            // Bounded, so that a phase's payments are made while the phase lasts.
            inFlight.acquire();
            clients.submit(
                () -> {
                  try {
                    gateway.pay(new ChargeRequest(trade, 1, 1_000, "EUR"));
                    count("payments");
                    count("payments_" + family(plan, trade));
                  } catch (RuntimeException e) {
                    // A payment call that blew up (not a PSP answer: those never throw) is a
                    // finding of the run: counted and shown.
                    count("paymentErrors");
                    err.println("channels chaos: payment " + trade + " failed: " + e);
                  } finally {
                    inFlight.release();
                  }
                });
            if (i == 3 * payments / 5 - 1) {
              crashAWorker(store);
            }
            Thread.sleep(2);
          }
          clients.shutdown();
          clients.awaitTermination(2, TimeUnit.MINUTES);
          a.outage(Outage.NONE);
          wxA.outage(Outage.NONE);
          converged = awaitConvergence(prefix, Duration.ofSeconds(120));
          Thread.sleep(1_500); // late webhooks (lies revealed) and their compensations
          awaitConvergence(prefix, Duration.ofSeconds(30));
          // The settlement reports: charges on FAILED attempts that every other path missed.
          List<PspCharge> settlement = new ArrayList<>();
          channels.sims().values().forEach(sim -> settlement.addAll(sim.ledger()));
          int reconciled =
              new LedgerReconciliation(ctx, dataSource)
                  .reconcile(
                      settlement,
                      prefix,
                      attempt -> {
                        count("reconciledCharges");
                        count(
                            channelOf.getOrDefault(attempt.channelAccountId(), "other")
                                + "_reconciledCharges");
                        err.println(
                            "channels chaos: reconciliation found the charge of FAILED attempt "
                                + attempt.id()
                                + " ("
                                + attempt.tradeOrderNo()
                                + ")");
                      });
          if (reconciled > 0) {
            awaitConvergence(prefix, Duration.ofSeconds(30));
          }
        } finally {
          // Also when the run fails: no loop may outlive it.
          stop.set(true);
          clients.shutdownNow();
          for (Thread t : loops) {
            t.join();
          }
          pool.shutdownNow();
        }
        List<PspCharge> ledger = new ArrayList<>();
        channels.sims().values().forEach(sim -> ledger.addAll(sim.ledger()));
        List<ChannelInvariants.Violation> violations =
            new ChannelInvariants(dataSource).check(ledger, prefix);
        if (!converged) {
          err.println("channels chaos: did not converge in time");
        }
        explain(violations, ledger);
        Map<String, Long> snapshot = new java.util.TreeMap<>();
        counts.forEach((k, v) -> snapshot.put(k, v.get()));
        snapshot.putAll(summary(prefix));
        receiver
            .tallies()
            .forEach(
                (id, t) -> {
                  String ch = channelOf.getOrDefault(id, "other");
                  snapshot.merge(ch + "_webhooks_accepted", t.accepted(), Long::sum);
                  snapshot.merge(ch + "_webhooks_refused", t.refused(), Long::sum);
                  snapshot.merge(ch + "_webhooks_failed", t.failed(), Long::sum);
                });
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

  /** Prints, for each order named by a violation, its attempts, their evidence and the ledger. */
  private void explain(List<ChannelInvariants.Violation> violations, List<PspCharge> ledger) {
    Sql sql = new Sql(dataSource);
    java.util.Set<String> trades = new java.util.TreeSet<>();
    for (ChannelInvariants.Violation v : violations) {
      int hash = v.subject().indexOf('#');
      trades.add(hash < 0 ? v.subject() : v.subject().substring(0, hash));
    }
    for (String trade : trades) {
      err.println("channels chaos: order " + trade);
      sql.query(
          "SELECT a.id, a.channel_account_id, a.origin, a.status, a.result_certainty,"
              + " a.error_code, a.provider_idempotency_key, e.source, e.operation, e.certainty,"
              + " e.provider_status, e.error_code, e.observed_at FROM payment_attempt a"
              + " LEFT JOIN provider_evidence e ON e.attempt_id = a.id"
              + " WHERE a.trade_order_no = ? ORDER BY a.id, e.id",
          ps -> ps.setString(1, trade),
          rs -> {
            StringBuilder line = new StringBuilder("  ");
            for (int col = 1; col <= 13; col++) {
              line.append(rs.getString(col)).append(col == 7 ? " | " : " ");
            }
            err.println(line);
            return 0;
          });
      ledger.stream()
          .filter(c -> c.merchantReference().equals(trade))
          .forEach(c -> err.println("  ledger " + c));
    }
  }

  /** WeChat account wx-a: definite outage (CHANNEL_UNAVAILABLE) for the 4th fifth of payments. */
  private void wechatPhase(int i, PspFaults wxA) {
    int fifth = Math.max(1, payments / 5);
    Outage wanted = i >= 3 * fifth && i < 4 * fifth ? Outage.UNAVAILABLE : Outage.NONE;
    if (wxA.outage() != wanted) {
      err.println("channels chaos: account wx-a outage " + wanted + " from payment " + i);
      wxA.outage(wanted);
    }
  }

  /** The payment method family of a trade: wallet for a seeded share, card otherwise. */
  private static String family(FaultPlan plan, String trade) {
    return plan.unit("family", trade, 0) < WALLET_SHARE ? "wallet" : "card";
  }

  private static String channelFor(String family) {
    return family.equals("wallet") ? "wechat" : "stripe";
  }

  /**
   * The flow engine's deadline: a wallet order whose attempt is still live (the customer has not
   * paid, or the result is not known) {@link #CLOSE_AFTER} after the attempt was created is closed
   * through the gateway. Closed: the attempt FAILED with code CLOSED; the customer paid meanwhile:
   * ALREADY_PAID and the attempt SUCCEEDED; no answer: tried again a second later. Returns how many
   * closes were sent.
   */
  private int closeOverdue(ChannelGateway gateway, String prefix, Map<String, Long> tried) {
    java.time.Instant cutoff = Clock.systemUTC().instant().minus(CLOSE_AFTER);
    List<String> overdue =
        new Sql(dataSource)
            .query(
                """
                SELECT DISTINCT a.trade_order_no FROM payment_attempt a
                JOIN payment_order o ON o.trade_order_no = a.trade_order_no
                WHERE a.trade_order_no LIKE ? AND o.payment_method = 'wallet'
                  AND a.status IN ('CREATED', 'PENDING', 'UNKNOWN') AND a.created_at < ?
                  AND NOT EXISTS (SELECT 1 FROM recovery_task t
                                  WHERE t.attempt_id = a.id AND t.status = 'MANUAL')
                """,
                ps -> {
                  ps.setString(1, prefix + "%");
                  ps.setObject(2, Sql.ts(cutoff));
                },
                rs -> rs.getString(1));
    int sent = 0;
    for (String trade : overdue) {
      long now = System.nanoTime();
      Long last = tried.get(trade);
      if (last != null && now - last < TimeUnit.SECONDS.toNanos(1)) {
        continue;
      }
      tried.put(trade, now);
      WalletResult closed = gateway.closePayment(trade);
      sent++;
      String outcome =
          switch (closed.certainty()) {
            case SUCCESS -> "CLOSED";
            case DEFINITE_FAILURE ->
                closed.errorCode() == null ? "FAILED" : closed.errorCode().replace(' ', '_');
            default -> "UNKNOWN";
          };
      count("closes_" + outcome);
    }
    return sent;
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
        "SELECT c.channel || '_attempts_' || a.status || '_' || a.origin, count(*)"
            + " FROM payment_attempt a JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE a.trade_order_no LIKE ? GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1), rs.getLong(2)));
    sql.query(
        "SELECT c.channel, count(*) FROM payment_attempt_history h"
            + " JOIN payment_attempt a ON a.id = h.attempt_id"
            + " JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE a.trade_order_no LIKE ? AND h.from_status = 'UNKNOWN' GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1) + "_resolvedFromUnknown", rs.getLong(2)));
    sql.query(
        "SELECT c.channel || '_compensation_' || k.status, count(*) FROM attempt_compensation k"
            + " JOIN payment_attempt a ON a.id = k.attempt_id"
            + " JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE k.trade_order_no LIKE ? GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1), rs.getLong(2)));
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
    sql.query(
        "SELECT c.channel, count(*) FROM recovery_task t JOIN payment_attempt a"
            + " ON a.id = t.attempt_id JOIN channel_account c ON c.id = a.channel_account_id"
            + " WHERE a.trade_order_no LIKE ? AND t.status = 'MANUAL' GROUP BY 1",
        ps -> ps.setString(1, prefix + "%"),
        rs -> out.put(rs.getString(1) + "_manualTasks", rs.getLong(2)));
    return out;
  }

  private static Thread loop(
      String name, AtomicBoolean stop, java.util.function.IntSupplier round) {
    return loop(name, stop, round, 20);
  }

  /** Runs {@code round} until stopped, pausing {@code idleMillis} after a round with no work. */
  private static Thread loop(
      String name, AtomicBoolean stop, java.util.function.IntSupplier round, long idleMillis) {
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
                    Thread.sleep(idleMillis);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            },
            "chaos-" + name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
