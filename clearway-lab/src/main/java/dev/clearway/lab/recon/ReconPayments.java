package dev.clearway.lab.recon;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundNumbers;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.lab.Parallel;
import dev.clearway.sim.psp.PspInjections;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes the run's payments through the flow engine over the channel layer, each with the difference
 * its {@link ReconPlan.Fate} injects registered at its PSP before the PSP sees it; then the
 * after-sales refunds, the reversals and the foreign orders.
 */
final class ReconPayments {

  private static final int CLIENTS = 8;

  /**
   * The goal's deadline: long enough that no payment outlives it on a loaded machine, so that the
   * business never rejects a paid goal and no flow refunds except those the run asks for.
   */
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  /**
   * The deadline of an order whose charge lags at the PSP: short, so that the flow closes it (the
   * PSP answering that it has no record of it) before the statement shows the charge.
   */
  private static final Duration LAGGING_DEADLINE = Duration.ofSeconds(6);

  /** One payment made: its flow, trade order number and fate. */
  record Paid(
      int index, long flowId, String trade, ReconPlan.Fate fate, boolean wallet, long amount) {}

  private final ReconRig rig;
  private final ReconPlan plan;
  private final long seed;
  private final Clock clock;
  private final PrintStream err;
  private final LeaseTokens leases;

  ReconPayments(ReconRig rig, ReconPlan plan, long seed, Clock clock, PrintStream err) {
    this.rig = rig;
    this.plan = plan;
    this.seed = seed;
    this.clock = clock;
    this.err = err;
    this.leases = new LeaseTokens("recon-chaos-client", clock, rig.config());
  }

  /** Makes {@code n} payments, {@link #CLIENTS} at a time; answers them in payment order. */
  List<Paid> pay(int n) {
    List<Paid> paid = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger next = new AtomicInteger();
    Parallel.run(
        CLIENTS,
        "recon-chaos-client",
        c -> {
          for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
            try {
              paid.add(payOne(i));
            } catch (RuntimeException e) {
              err.println("reconcile chaos: payment " + i + " failed: " + e);
            }
          }
        });
    List<Paid> out = new ArrayList<>(paid);
    out.sort(Comparator.comparingInt(Paid::index));
    return out;
  }

  private Paid payOne(int i) {
    boolean wallet = plan.wallet(i);
    ReconPlan.Fate fate = plan.fate(i);
    long amount = plan.amount(i);
    GoalKey goal = GoalKey.ofDefaultMerchant(1_000 + i % 97, "recon", "R:" + seed + ":" + i);
    Instant now = clock.instant();
    Instant deadline = now.plus(fate == ReconPlan.Fate.LATE_CHARGE ? LAGGING_DEADLINE : DEADLINE);
    Lease lease = leases.next();
    FlowStore.CreateResult created =
        rig.flows().createAttempt(new NewPayment(goal, amount, "CNY", deadline), lease, now);
    PayFlow flow = created.flow();
    String trade = flow.tradeOrderNo();
    rig.paysBy(trade, wallet);
    PspInjections at = wallet ? rig.wallet().injections() : rig.card().injections();
    switch (fate) {
      case LATE_CHARGE -> at.lagCharge(trade);
      case FEE_DIFFERS -> at.feeDelta(trade, plan.feeDelta(i));
      case CLEAN, REFUND_REPORTED_FAILED, CLEAN_REFUND, SPLIT_REFUND, REVERSED -> {
        // Injected after the payment, if at all.
      }
    }
    rig.engine().advancer().advanceCreated(flow, Trigger.held(TriggerSource.SYNC, lease));
    return new Paid(i, flow.id(), trade, fate, wallet, amount);
  }

  /**
   * After the payments settled: the after-sales refunds (some reported refused by the PSP), the
   * reversals (in the next UTC day's report) and the orders made outside Clearway.
   */
  void afterSettlement(List<Paid> paid) {
    Instant reversalAt =
        LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC)
            .plusDays(1)
            .atStartOfDay(ZoneOffset.UTC)
            .toInstant()
            .plusSeconds(600);
    for (Paid p : paid) {
      if (status(p) != FlowStatus.BIZ_SUCCESS) {
        continue;
      }
      switch (p.fate()) {
        case REFUND_REPORTED_FAILED -> {
          rig.wallet().injections().lieOnRefund(RefundNumbers.of(p.trade(), 1));
          refund(p);
        }
        case CLEAN_REFUND -> refund(p);
        case SPLIT_REFUND -> splitRefund(p);
        case REVERSED -> rig.card().reverse(p.trade(), reversalAt);
        case CLEAN, LATE_CHARGE, FEE_DIFFERS -> {
          // Nothing after the payment.
        }
      }
    }
    int foreign = plan.foreignOrders(paid.size());
    for (int k = 0; k < foreign; k++) {
      rig.wallet().foreignCharge("ext" + seed + "x" + k, "ext_" + seed + "_" + k, 1_000 + k, "CNY");
    }
  }

  private FlowStatus status(Paid p) {
    return rig.flows().find(p.flowId()).map(PayFlow::status).orElse(null);
  }

  /** A full after-sales refund, requested by the payment's merchant. */
  private void refund(Paid p) {
    refund(p, p.amount(), "recon-refund-" + p.index());
  }

  /**
   * Two after-sales refunds of half the amount each, which the card PSP's report lists without our
   * refund numbers: two lines of one payment with the same amount.
   */
  private void splitRefund(Paid p) {
    long half = p.amount() / 2;
    rig.card().injections().unnameRefund(RefundNumbers.of(p.trade(), 1));
    rig.card().injections().unnameRefund(RefundNumbers.of(p.trade(), 2));
    refund(p, half, "recon-refund-" + p.index() + "-1");
    refund(p, half, "recon-refund-" + p.index() + "-2");
  }

  private void refund(Paid p, long amount, String idempotencyKey) {
    RefundStore.CreateOutcome outcome =
        rig.refunds()
            .service()
            .request(
                new NewRefund(
                    p.flowId(), amount, "after-sales", GoalKey.DEFAULT_MERCHANT, idempotencyKey),
                Duration.ofSeconds(2),
                rig.refunds().syncAdvances());
    if (!(outcome instanceof RefundStore.CreateOutcome.Created)) {
      err.println("reconcile chaos: refund of " + p.trade() + " not created: " + outcome);
    }
  }
}
