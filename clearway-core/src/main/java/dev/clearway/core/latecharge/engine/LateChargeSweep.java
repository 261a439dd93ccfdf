package dev.clearway.core.latecharge.engine;

import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.fact.Certainty;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.latecharge.decision.LateChargeDecision;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.LateChargeStatus;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.domain.SweepSchedule;
import dev.clearway.core.latecharge.port.LateChargeEvents;
import dev.clearway.core.latecharge.port.LateChargeStore;
import dev.clearway.core.latecharge.port.LateChargeStore.Suspected;
import dev.clearway.core.latecharge.port.SweepStore;
import dev.clearway.core.latecharge.port.SweepStore.Cursor;
import dev.clearway.core.latecharge.port.SweepStore.EndedFlow;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.runtime.LeaseTokens;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Finds the charges no callback reports: asks the wallet about every order that ended without
 * payment, at each stage of the {@link SweepSchedule} after it ended, paced. An answer other than a
 * definite "no charge" becomes a late-charge check (one per flow), which the checks carry to a
 * refund, a "no charge" or a person. The sweep remembers nothing in memory: each stage's cursor and
 * lease live in the database, so a restarted process continues where the last one stopped.
 */
public final class LateChargeSweep {
  static final String TABLE = "late_charge_sweep";
  private static final long PACE_KEY = 0L;

  private final SweepStore sweeps;
  private final LateChargeStore checks;
  private final WalletGateway wallet;
  private final RefundService refunds;
  private final LateChargeEvents events;
  private final LeaseTokens leases;
  private final EngineConfig config;
  private final SweepSchedule schedule;
  private final PacedRateLimiter pace = new PacedRateLimiter();
  private final Clock clock;

  public LateChargeSweep(
      SweepStore sweeps,
      LateChargeStore checks,
      WalletGateway wallet,
      RefundService refunds,
      LateChargeEvents events,
      LeaseTokens leases,
      EngineConfig config,
      SweepSchedule schedule,
      Clock clock) {
    this.sweeps = sweeps;
    this.checks = checks;
    this.wallet = wallet;
    this.refunds = refunds;
    this.events = events;
    this.leases = leases;
    this.config = config;
    this.schedule = schedule;
    this.clock = clock;
  }

  public SweepSchedule schedule() {
    return schedule;
  }

  /** One round over every stage; returns the number of wallet queries made. */
  public int runRound() {
    int queried = 0;
    for (Duration stage : schedule.stages()) {
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
      queried += sweepStage(stage);
    }
    return queried;
  }

  private int sweepStage(Duration stage) {
    Instant now = clock.instant();
    Lease lease = leases.next();
    Cursor initial = new Cursor(now.minus(schedule.firstStartAge(stage)), 0);
    Optional<Cursor> claimed = sweeps.claimStage(stage, initial, lease, now);
    if (claimed.isEmpty()) {
      return 0; // another sweeper works on this stage
    }
    try {
      Optional<Cursor> start = withinWindow(stage, claimed.get(), lease, now);
      return start.isEmpty() ? 0 : queryUpTo(stage, start.get(), now.minus(stage), lease);
    } finally {
      sweeps.release(stage, lease.token());
    }
  }

  /**
   * A stage that fell further behind than the window skips what left it (counted), so a sweep that
   * was stopped for days resumes at a bounded cost. Empty when the lease was lost.
   */
  private Optional<Cursor> withinWindow(Duration stage, Cursor cursor, Lease lease, Instant now) {
    Instant floor = now.minus(schedule.window());
    if (!cursor.endedAt().isBefore(floor)) {
      return Optional.of(cursor);
    }
    long skipped = sweeps.countEnded(cursor, floor);
    Cursor moved = new Cursor(floor, 0);
    if (!sweeps.advance(stage, moved, lease.token(), now.plus(config.lease()), now)) {
      events.leaseLost(TABLE);
      return Optional.empty();
    }
    if (skipped > 0) {
      events.sweepSkipped(stage, skipped);
    }
    return Optional.of(moved);
  }

  private int queryUpTo(Duration stage, Cursor from, Instant upTo, Lease lease) {
    Cursor cursor = from;
    int queried = 0;
    while (true) {
      List<EndedFlow> page = sweeps.endedFlows(cursor, upTo, schedule.pageSize());
      for (EndedFlow flow : page) {
        pace.acquire(PACE_KEY, schedule.queriesPerSecond());
        if (Thread.currentThread().isInterrupted()) {
          return queried;
        }
        query(stage, flow);
        queried++;
        cursor = new Cursor(flow.endedAt(), flow.flowId());
        Instant now = clock.instant();
        // Moving the cursor also extends the lease: a long stage keeps it while it progresses.
        if (!sweeps.advance(stage, cursor, lease.token(), now.plus(config.lease()), now)) {
          events.leaseLost(TABLE);
          return queried;
        }
      }
      if (page.size() < schedule.pageSize()) {
        // The pass reached upTo: every order that ended by then was queried at this stage. The
        // cursor says so (its lag gauge then measures the sweep, not the traffic).
        Instant now = clock.instant();
        if (upTo.isAfter(cursor.endedAt())
            && !sweeps.advance(stage, passed(upTo), lease.token(), now.plus(config.lease()), now)) {
          events.leaseLost(TABLE);
        }
        return queried;
      }
    }
  }

  /** The cursor after every flow that ended at or before {@code upTo}. */
  private static Cursor passed(Instant upTo) {
    return new Cursor(upTo, Long.MAX_VALUE);
  }

  private void query(Duration stage, EndedFlow flow) {
    WalletResult result = wallet.queryPayment(flow.tradeOrderNo());
    events.externalCall("LATE_CHARGE_SWEEP_QUERY", result.certainty().name());
    events.swept(stage, result.certainty().name());
    switch (LateChargeDecision.sweepFinding(result)) {
      case NO_CHARGE -> {}
      case SUSPECT -> suspect(flow, result);
    }
  }

  private void suspect(EndedFlow flow, WalletResult result) {
    Optional<Suspected> suspected =
        checks.suspect(flow.flowId(), SuspicionSource.SWEEP, clock.instant());
    if (suspected.isEmpty()) {
      return; // the flow is not ended unpaid (a row written outside the engine)
    }
    events.suspected(SuspicionSource.SWEEP, suspected.get().created());
    LateChargeCheck check = suspected.get().check();
    if (check.status() == LateChargeStatus.NO_CHARGE && result.certainty() == Certainty.SUCCESS) {
      // Two wallet answers disagree: the check ended on "no charge", now the charge is there. The
      // check stays ended; the money still goes back, under the same fixed key.
      events.contradiction(flow.flowId());
      refunds.request(NewRefund.lateCharge(flow.flowId(), flow.amount()));
    }
  }
}
