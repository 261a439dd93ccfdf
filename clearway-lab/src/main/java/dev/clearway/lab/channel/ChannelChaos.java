package dev.clearway.lab.channel;

import dev.clearway.boot.metrics.MicrometerChannelEvents;
import dev.clearway.boot.metrics.MicrometerWechatKeyEvents;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.engine.StaticRecoveryPolicies;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.psp.health.CircuitBreakerHealth;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.store.PostgresDialect;
import dev.clearway.store.SqlDialect;
import dev.clearway.store.channel.JdbcChannelStores;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The chaos run's channel scenarios, deterministic in fault assignment from the seed: three
 * Stripe-style accounts (method {@code card}) and two WeChat Pay v3-style accounts (method {@code
 * wallet}), each in its own failure domain, over real HTTP ({@link ChaosAccounts}). A seeded share
 * of the payments ({@link ChaosPaymentMix#WALLET_SHARE}) pays by wallet, the rest by card.
 *
 * <p>Stripe: account A has an outage (definite "channel_unavailable", then a black hole whose
 * results are UNKNOWN and must not fail over, {@link ChaosPhases}); B loses responses and sometimes
 * lies (answers a definite failure, charges anyway); C answers stored 500s. Some cards are
 * declined, some settle asynchronously.
 *
 * <p>WeChat: wx-a loses responses (creates, queries, closes) and has an UNAVAILABLE outage phase,
 * so wallet payments fail over to wx-b; wx-b sometimes lies. The simulated customer pays a native
 * order shortly after it is created, and for a seeded small share never pays or fails to pay: those
 * attempts wait for the customer (PENDING) until the driver closes their orders as the flow engine
 * would at its deadline ({@link ChaosCloser#CLOSE_AFTER}); a customer who paid meanwhile makes the
 * close answer ALREADY_PAID.
 *
 * <p>Webhooks of both channels are duplicated and delayed, racing two recovery workers; a crashed
 * worker's leases are taken over ({@link ChaosWorkers}). At the end the PSPs' ledgers are
 * reconciled as settlement reports ({@link LedgerReconciliation}): a charge on a FAILED attempt
 * that the other paths missed is compensated then, and counted ({@code reconciledCharges}). The
 * verdict comes from {@link ChannelInvariants}.
 */
public final class ChannelChaos {

  /** Payments in flight at once: the outage phases follow the payments actually being made. */
  private static final int CLIENTS = 16;

  private final DataSource dataSource;
  private final SqlDialect dialect;
  private final int payments;
  private final long seed;
  private final PrintStream err;
  private final ChaosCounts counts = new ChaosCounts();

  /** On PostgreSQL. */
  public ChannelChaos(DataSource dataSource, int payments, long seed, PrintStream err) {
    this(dataSource, new PostgresDialect(), payments, seed, err);
  }

  /** On the database of {@code dialect}. */
  public ChannelChaos(
      DataSource dataSource, SqlDialect dialect, int payments, long seed, PrintStream err) {
    this.dataSource = dataSource;
    this.dialect = dialect;
    this.payments = payments;
    this.seed = seed;
    this.err = err;
  }

  public ChannelChaosReport run() throws InterruptedException {
    long started = System.nanoTime();
    ChannelStores store = JdbcChannelStores.create(dataSource, dialect);
    ChaosAccounts accounts = new ChaosAccounts(seed);
    String prefix = "t_ch_" + seed + "_" + Long.toString(System.nanoTime(), 36) + "_";
    ChaosPaymentMix mix = new ChaosPaymentMix(new FaultPlan(seed, 1));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (SimChannels channels =
        new SimChannels(
            store,
            accounts.specs(),
            Duration.ofMillis(100),
            Duration.ofSeconds(2),
            new MicrometerWechatKeyEvents(registry))) {
      Map<Long, String> channelOf = new HashMap<>();
      channels.accounts().forEach(acc -> channelOf.put(acc.id(), acc.channel()));
      ChannelEvents metrics =
          new MicrometerChannelEvents(registry, store.tasks(), Clock.systemUTC());
      ChannelContext ctx =
          context(store, channels, new ChaosEvents(metrics, counts, channelOf, mix));
      ChannelGateway gateway = new ChannelGateway(ctx, mix.methods());
      ChaosRig rig = new ChaosRig(store, channels, ctx, gateway, prefix, channelOf);
      try (WebhookReceiver receiver = new WebhookReceiver(new ChannelWebhookIntake(ctx))) {
        channels.sims().forEach((id, sim) -> sim.webhookTarget(receiver.target(id)));
        boolean converged = drive(rig, new ChaosPhases(accounts, payments, err), mix);
        List<PspCharge> ledger = rig.ledger();
        List<ChannelInvariants.Violation> violations =
            new ChannelInvariants(dataSource).check(ledger, prefix);
        if (!converged) {
          err.println("channels chaos: did not converge in time");
        }
        new ChaosExplain(dataSource, err).explain(violations, ledger);
        Map<String, Long> snapshot = snapshot(rig, receiver);
        Map<String, Double> meters = meters(registry);
        return new ChannelChaosReport(
            payments, seed, violations, snapshot, meters, (System.nanoTime() - started) / 1e9);
      }
    }
  }

  private static ChannelContext context(
      ChannelStores store, SimChannels channels, ChannelEvents events) {
    return new ChannelContext(
        store,
        channels::adapter,
        new CircuitBreakerHealth(20, 50f, Duration.ofSeconds(2)),
        new StaticRecoveryPolicies(ChaosPolicy.policy()),
        new PacedRateLimiter(),
        events,
        Clock.systemUTC(),
        trade -> {},
        Duration.ofSeconds(3));
  }

  /**
   * Makes the payments with the background workers running, then lets the orders settle. Returns
   * whether they converged in time.
   */
  private boolean drive(ChaosRig rig, ChaosPhases phases, ChaosPaymentMix mix)
      throws InterruptedException {
    ChaosWorkers workers =
        new ChaosWorkers(rig.ctx(), rig.store(), counts)
            .start(new ChaosCloser(dataSource, rig.gateway(), rig.prefix(), counts));
    ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
    try {
      pay(rig, phases, mix, workers, clients);
      return settle(rig, phases);
    } finally {
      // Also when the run fails: no loop may outlive it.
      workers.stop();
      clients.shutdownNow();
      workers.awaitStopped();
    }
  }

  /**
   * The payments, at most {@link #CLIENTS} in flight, through the outage phases; a worker crashes
   * after three fifths of them.
   */
  private void pay(
      ChaosRig rig,
      ChaosPhases phases,
      ChaosPaymentMix mix,
      ChaosWorkers workers,
      ExecutorService clients)
      throws InterruptedException {
    Semaphore inFlight = new Semaphore(CLIENTS);
    for (int i = 0; i < payments; i++) {
      phases.before(i);
      String trade = rig.prefix() + i;
      // Bounded, so that a phase's payments are made while the phase lasts.
      inFlight.acquire();
      clients.submit(
          () -> {
            try {
              rig.gateway().pay(new ChargeRequest(trade, 1, 1_000, "EUR"));
              counts.count("payments");
              counts.count("payments_" + mix.family(trade));
            } catch (RuntimeException e) {
              // A payment call that blew up (not a PSP answer: those never throw) is a
              // finding of the run: counted and shown.
              counts.count("paymentErrors");
              err.println("channels chaos: payment " + trade + " failed: " + e);
            } finally {
              inFlight.release();
            }
          });
      if (i == 3 * payments / 5 - 1) {
        workers.crashOne();
      }
      Thread.sleep(2);
    }
    clients.shutdown();
    clients.awaitTermination(2, TimeUnit.MINUTES);
  }

  /**
   * Ends the outages, waits for the orders to settle, then reconciles the PSP ledgers and waits
   * again if that found anything. Returns whether the orders first settled in time.
   */
  private boolean settle(ChaosRig rig, ChaosPhases phases) throws InterruptedException {
    phases.end();
    ChaosConvergence convergence = new ChaosConvergence(dataSource, rig.prefix());
    boolean converged = convergence.await(Duration.ofSeconds(120));
    Thread.sleep(1_500); // late webhooks (lies revealed) and their compensations
    convergence.await(Duration.ofSeconds(30));
    if (reconcile(rig) > 0) {
      convergence.await(Duration.ofSeconds(30));
    }
    return converged;
  }

  /** The settlement reports: charges on FAILED attempts that every other path missed. */
  private int reconcile(ChaosRig rig) {
    List<PspCharge> settlement = rig.ledger();
    return new LedgerReconciliation(rig.ctx(), dataSource)
        .reconcile(
            settlement,
            rig.prefix(),
            attempt -> {
              counts.count("reconciledCharges");
              counts.count(rig.channelName(attempt.channelAccountId()) + "_reconciledCharges");
              err.println(
                  "channels chaos: reconciliation found the charge of FAILED attempt "
                      + attempt.id()
                      + " ("
                      + attempt.tradeOrderNo()
                      + ")");
            });
  }

  /** The run's counters, the database's counts and the webhook tallies by channel. */
  private Map<String, Long> snapshot(ChaosRig rig, WebhookReceiver receiver) {
    Map<String, Long> snapshot = counts.snapshot();
    snapshot.putAll(new ChaosSummary(dataSource, rig.prefix()).counts());
    receiver
        .tallies()
        .forEach(
            (id, t) -> {
              String ch = rig.channelName(id);
              snapshot.merge(ch + "_webhooks_accepted", t.accepted(), Long::sum);
              snapshot.merge(ch + "_webhooks_refused", t.refused(), Long::sum);
              snapshot.merge(ch + "_webhooks_failed", t.failed(), Long::sum);
            });
    return snapshot;
  }

  /**
   * The failovers, the PSP answers of unknown result and the WeChat Pay answers under an unknown
   * platform serial, as the metrics counted them.
   */
  private static Map<String, Double> meters(SimpleMeterRegistry registry) {
    Map<String, Double> meters = new TreeMap<>();
    meters.put(
        "clearway.channel.failovers", registry.counter("clearway.channel.failovers").count());
    meters.put(
        "unknownAnswers",
        registry
            .find("clearway.channel.psp.answers")
            .tag("certainty", "UNKNOWN")
            .counters()
            .stream()
            .mapToDouble(Counter::count)
            .sum());
    meters.put(
        "unknownSerials",
        registry.find("clearway.wechat.unknown.serial").counters().stream()
            .mapToDouble(Counter::count)
            .sum());
    return meters;
  }
}
