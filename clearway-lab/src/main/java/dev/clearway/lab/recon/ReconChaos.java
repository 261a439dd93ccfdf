package dev.clearway.lab.recon;

import dev.clearway.lab.channel.ChannelInvariants.Violation;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspInjections;
import dev.clearway.sim.psp.PspInjections.Injected;
import dev.clearway.store.Database;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The chaos run whose only witness is the statement. Payments go through the flow engine and the
 * channel layer to a simulated Stripe-style card account and a WeChat Pay-style wallet account over
 * HTTP, while the PSPs inject differences that nothing online reveals ({@link
 * dev.clearway.sim.psp.PspInjections}): charges whose data lags past the order's close, refunds
 * executed but reported refused, fees other than agreed, orders made outside Clearway, reversals
 * after settlement, and a corrupted statement file per account that must be refused before the good
 * one. Then the statements are imported, every account-day reconciled with a clock past the
 * settlement windows, the repairs run to the end through the engines, and the injected differences
 * compared with those found; the invariants are checked after the repairs ({@link
 * ReconViolations}). Deterministic in what is injected from the seed.
 */
public final class ReconChaos {

  /** The probability of each injected fate per payment ({@link ReconPlan}). */
  static final double RATE = 0.04;

  /** How far past the last payment reconciliation looks: every settlement window has passed. */
  static final Duration AS_OF_AHEAD = Duration.ofDays(3);

  private final Database db;
  private final int payments;
  private final long seed;
  private final Path out;
  private final PrintStream err;
  private final Clock clock = Clock.systemUTC();

  public ReconChaos(Database db, int payments, long seed, Path out, PrintStream err) {
    if (payments < 1) {
      throw new IllegalArgumentException("--payments must be at least 1");
    }
    this.db = db;
    this.payments = payments;
    this.seed = seed;
    this.out = out;
    this.err = err;
  }

  public ReconChaosReport run() throws InterruptedException {
    long started = System.nanoTime();
    Instant from = clock.instant();
    try (ReconRig rig = new ReconRig(db.dataSource(), db.dialect(), db.flowStore(), seed, clock)) {
      ReconPayments driver = new ReconPayments(rig, new ReconPlan(seed, RATE), seed, clock, err);
      List<ReconPayments.Paid> paid = driver.pay(payments);
      ReconWaits waits = new ReconWaits(db.dataSource(), db.dialect());
      await(waits::openPayments, "the payments", Duration.ofSeconds(120));
      driver.afterSettlement(paid);
      await(waits::openRefunds, "the refunds", Duration.ofSeconds(60));
      Thread.sleep(1_000); // the last notifications
      Instant to = clock.instant();
      rig.card().injections().corruptNextStatements(1);
      rig.wallet().injections().corruptNextStatements(1);
      ReconStatements statements =
          new ReconStatements(rig, db.dataSource(), db.dialect(), clock, err);
      List<ReconStatements.Imported> files = statements.importAll(from, to);
      ReconSteps steps =
          new EngineReconSteps(
              db.dataSource(), db.dialect(), rig, Clock.offset(clock, AS_OF_AHEAD), err);
      files.forEach(steps::reconcile);
      repairToTheEnd(steps, waits);
      return verdict(rig, steps, paid, statements.refused(), started);
    }
  }

  /**
   * Repair rounds until no difference is left to work, letting the engines finish what each round
   * started (the refunds it asked for, the flows it woke).
   */
  private void repairToTheEnd(ReconSteps steps, ReconWaits waits) throws InterruptedException {
    for (int round = 0; round < 100; round++) {
      int claimed = steps.repair();
      await(waits::openRefunds, "the repairs' refunds", Duration.ofSeconds(60));
      await(waits::openPayments, "the repaired payments", Duration.ofSeconds(60));
      if (claimed == 0 && steps.unresolved() == 0) {
        return;
      }
      Thread.sleep(claimed == 0 ? 300 : 50);
    }
    err.println("reconcile chaos: differences still unresolved after 100 repair rounds");
  }

  private ReconChaosReport verdict(
      ReconRig rig, ReconSteps steps, List<ReconPayments.Paid> paid, int refused, long started) {
    List<Injected> injected = injected(rig);
    List<ReconTally.FoundDifference> found = steps.differences();
    ReconTally tally = ReconTally.of(injected, found);
    List<PspCharge> ledger = new ArrayList<>();
    rig.channels().sims().values().forEach(s -> ledger.addAll(s.ledger()));
    Set<String> reversed = new HashSet<>();
    injected.stream()
        .filter(i -> i.kind().equals("ADJUSTMENT_TO_REVIEW"))
        .forEach(i -> reversed.add(i.key()));
    Map<String, String> settlement = steps.settlement(reversed);
    int corrupted =
        rig.card().injections().corruptionsServed() + rig.wallet().injections().corruptionsServed();
    List<Violation> violations =
        new ReconViolations(db.dataSource(), db.dialect())
            .check(
                ledger,
                pspRefunds(rig),
                ReconViolations.ticketed(found),
                reversed,
                settlement,
                refused,
                corrupted);
    if (out != null) {
      ReconCsv.write(out, db.dataSource(), rig.business().grants(), ledger, injected, found);
    }
    long autoRepaired =
        found.stream().filter(d -> d.state().equals("RESOLVED") && d.automatic()).count();
    long tickets = found.stream().filter(d -> d.state().equals("NEEDS_PERSON")).count();
    return new ReconChaosReport(
        paid.size(),
        seed,
        tally,
        autoRepaired,
        tickets,
        refused,
        refundCounts(rig),
        violations,
        (System.nanoTime() - started) / 1e9);
  }

  /**
   * Every refund either PSP holds, by the number it was sent with, in the wallet's words ({@code
   * SUCCESS} for a refund that went through): the card PSP's {@code succeeded} is one.
   */
  private static Map<String, String> pspRefunds(ReconRig rig) {
    Map<String, String> out = new java.util.HashMap<>(rig.wallet().refundStatuses());
    rig.card()
        .refundStatuses()
        .forEach((no, status) -> out.put(no, "succeeded".equals(status) ? "SUCCESS" : status));
    return out;
  }

  /**
   * The refunds that went through at each PSP; for the card PSP also those its report lists without
   * our refund number (matched through the payment).
   */
  private static Map<String, Long> refundCounts(ReconRig rig) {
    Map<String, Long> out = new java.util.LinkedHashMap<>();
    Map<String, String> card = rig.card().refundStatuses();
    out.put("card", card.values().stream().filter("succeeded"::equals).count());
    out.put(
        "cardWithoutOurNumber",
        card.entrySet().stream()
            .filter(e -> "succeeded".equals(e.getValue()))
            .filter(e -> rig.card().injections().unnamed(e.getKey()))
            .count());
    out.put(
        "wallet",
        rig.wallet().refundStatuses().values().stream().filter("SUCCESS"::equals).count());
    return out;
  }

  private static List<Injected> injected(ReconRig rig) {
    return Stream.of(rig.card().injections(), rig.wallet().injections())
        .map(PspInjections::injected)
        .flatMap(List::stream)
        .toList();
  }

  private void await(java.util.function.LongSupplier open, String what, Duration max)
      throws InterruptedException {
    if (!ReconWaits.await(open, max)) {
      err.println("reconcile chaos: " + what + " did not settle within " + max);
    }
  }
}
