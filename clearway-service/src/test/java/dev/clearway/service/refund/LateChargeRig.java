package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.latecharge.domain.SuspicionSource;
import dev.clearway.core.latecharge.domain.SweepSchedule;
import dev.clearway.core.latecharge.engine.LateChargeChecker;
import dev.clearway.core.latecharge.engine.LateChargeSweep;
import dev.clearway.core.latecharge.port.LateChargeEvents;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.ScriptedWallet.Pay;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.JdbcCallbackInbox;
import dev.clearway.store.latecharge.JdbcLateChargeOps;
import dev.clearway.store.latecharge.JdbcLateChargeStore;
import dev.clearway.store.latecharge.JdbcSweepStore;
import dev.clearway.store.testing.TestDatabase;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Late-charge checks and the sweep wired with plain constructors over the refund test engine: the
 * shared embedded PostgreSQL, a {@code MutableClock}, the scripted wallet. {@link #restart()} wires
 * new instances (new lease tokens, nothing in memory) over the same database and wallet, as a
 * process restart would.
 */
final class LateChargeRig {
  /** Production stages (5 min, 1 h, 6 h, 1 day, 47 h) at a rate that keeps tests quick. */
  static final SweepSchedule SCHEDULE = SweepSchedule.production(Duration.ofHours(48), 1_000);

  final RefundTestEngine e;
  final JdbcLateChargeStore checks;
  final JdbcSweepStore sweeps;
  final JdbcLateChargeOps ops;
  final JdbcCallbackInbox inbox;
  final Counting events = new Counting();
  final LeaseTokens leases;
  final LateChargeChecker checker;
  final Scanner scanner;
  final LateChargeSweep sweep;
  private final AtomicLong goals;
  private final AtomicInteger crashes = new AtomicInteger();

  private LateChargeRig(RefundTestEngine e, String instance, AtomicLong goals) {
    this.e = e;
    this.goals = goals;
    this.checks = new JdbcLateChargeStore(e.h.dataSource, TestDatabase.get().dialect());
    this.sweeps = new JdbcSweepStore(e.h.dataSource, TestDatabase.get().dialect());
    this.ops = new JdbcLateChargeOps(e.h.dataSource);
    this.inbox = new JdbcCallbackInbox(e.h.dataSource, TestDatabase.get().dialect());
    this.leases = new LeaseTokens(instance, e.h.clock, RefundTestEngine.CONFIG);
    this.checker =
        new LateChargeChecker(
            checks,
            e.h.store,
            e.h.wallet,
            e.service,
            events,
            leases,
            RefundTestEngine.CONFIG,
            e.h.clock);
    this.scanner =
        new Scanner(
            checks::claimDue, leases, RefundTestEngine.CONFIG, events::scannerRound, e.h.clock);
    this.sweep =
        new LateChargeSweep(
            sweeps,
            checks,
            e.h.wallet,
            e.service,
            events,
            leases,
            RefundTestEngine.CONFIG,
            SCHEDULE,
            e.h.clock);
  }

  /** A fresh database and one "process". */
  static LateChargeRig fresh() {
    LateChargeRig rig = new LateChargeRig(RefundTestEngine.fresh(), "lc-1", new AtomicLong());
    rig.execute("TRUNCATE callback_inbox");
    return rig;
  }

  /** Another process over the same database and wallet: new objects, new tokens, no memory. */
  LateChargeRig restart() {
    return new LateChargeRig(e.withWallet(e.h.wallet), "lc-restarted", goals);
  }

  // ---- flows ----------------------------------------------------------------------------------

  /**
   * A flow whose pay request timed out before reaching the wallet and which ended PAY_FAIL; the
   * request is still in transit (it can arrive: {@link #deliverLatePay}).
   */
  PayFlow failedWithPayInTransit() {
    PayFlow started = startPaying();
    return end(started, FlowStatus.PAY_FAIL, "CLOSED_BEFORE_CHARGE");
  }

  /** As {@link #failedWithPayInTransit()}, and the request in transit then charged the customer. */
  PayFlow failedThenCharged() {
    PayFlow failed = failedWithPayInTransit();
    deliverLatePay(failed);
    return failed;
  }

  /** A flow whose order was closed at the wallet before it ended PAY_FAIL: never charged. */
  PayFlow failedAndClosedAtTheWallet() {
    PayFlow started = startPaying();
    assertThat(e.h.wallet.closePayment(started.tradeOrderNo()).certainty().name())
        .isEqualTo("SUCCESS");
    return end(started, FlowStatus.PAY_FAIL, "UNPAID_TIMEOUT");
  }

  /** A flow closed before any payment call, then charged by a request no callback reports. */
  PayFlow closedThenCharged() {
    Lease lease = leases.next();
    PayFlow created =
        e.h
            .store
            .createAttempt(
                EngineHarness.payment(goal(), EngineHarness.T0.plus(Duration.ofDays(3))),
                lease,
                e.h.clock.instant())
            .flow();
    PayFlow closed = end(created, FlowStatus.CLOSED, "CANCELLED");
    e.h.wallet.pay(
        new ChargeRequest(
            closed.tradeOrderNo(), EngineHarness.USER, closed.amount(), EngineHarness.CURRENCY));
    return closed;
  }

  void deliverLatePay(PayFlow flow) {
    assertThat(e.h.wallet.deliverLatePay(flow.tradeOrderNo())).isNotNull();
    assertThat(e.h.wallet.charges(flow.tradeOrderNo())).isEqualTo(1);
  }

  private PayFlow startPaying() {
    long next = e.h.flowIds().stream().mapToLong(Long::longValue).max().orElse(0) + 1;
    e.h.wallet.scriptPay(EngineHarness.trade(next), Pay.TIMEOUT_BEFORE);
    PayFlow flow = e.h.start(goal(), EngineHarness.T0.plus(Duration.ofDays(3))).flow();
    assertThat(flow.id()).isEqualTo(next);
    assertThat(flow.status()).isEqualTo(FlowStatus.PAYING);
    return flow;
  }

  private GoalKey goal() {
    return EngineHarness.goal("late-" + goals.incrementAndGet());
  }

  private PayFlow end(PayFlow flow, FlowStatus to, String code) {
    Instant now = e.h.clock.instant();
    return e.h
        .store
        .transition(
            new TransitionWrite(
                flow,
                to,
                code,
                now,
                null,
                new HistoryNote(TriggerSource.SCANNER, null, "END", 0),
                now,
                flow.leaseOwner()))
        .orElseThrow();
  }

  // ---- triggers -------------------------------------------------------------------------------

  /** A verified callback about the flow's order, stored as CallbackController stores it. */
  boolean callback(PayFlow flow, String eventId) {
    return inbox.store(
        new JdbcCallbackInbox.Event(
            "sim",
            eventId,
            "charge.succeeded",
            flow.tradeOrderNo(),
            null,
            flow.id(),
            "ACCEPTED",
            "0".repeat(64),
            e.h.clock.instant()));
  }

  /** One late-charge scanner round, each claimed check advanced inline; a crash kills only it. */
  int scan() {
    return scanner.runRound(
        (id, trigger) -> {
          try {
            checker.advance(id, trigger);
          } catch (SimulatedCrash crash) {
            crashes.incrementAndGet();
          }
        });
  }

  LateChargeChecker.Outcome wake(long checkId) {
    return checker.advance(checkId, Trigger.unclaimed(TriggerSource.WAKEUP));
  }

  // ---- what the tests read --------------------------------------------------------------------

  LateChargeCheck check(PayFlow flow) {
    return checks.findByFlow(flow.id()).orElseThrow(() -> new AssertionError("no check"));
  }

  List<RefundOrder> refunds(PayFlow flow) {
    return e.refunds.findByFlow(flow.id(), 0, 100);
  }

  long refundedAtTheWallet(PayFlow flow) {
    return e.h.wallet.ledger().stream()
        .filter(l -> l.kind() == LedgerEntry.Kind.REFUND)
        .filter(l -> l.tradeOrderNo().equals(flow.tradeOrderNo()))
        .mapToLong(LedgerEntry::amount)
        .sum();
  }

  long queriesOf(PayFlow flow) {
    return e.h.wallet.calls("QUERY").stream()
        .filter(c -> c.orderNo().equals(flow.tradeOrderNo()))
        .count();
  }

  long count(String sql) {
    try (var c = e.h.dataSource.getConnection();
        var st = c.createStatement();
        var rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    } catch (java.sql.SQLException ex) {
      throw new IllegalStateException(sql, ex);
    }
  }

  void execute(String sql) {
    try (var c = e.h.dataSource.getConnection();
        var st = c.createStatement()) {
      st.execute(sql);
    } catch (java.sql.SQLException ex) {
      throw new IllegalStateException(sql, ex);
    }
  }

  int crashes() {
    return crashes.get();
  }

  /** Counts what the checks and the sweep report. */
  static final class Counting implements LateChargeEvents {
    final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    int count(String key) {
      AtomicInteger n = counts.get(key);
      return n == null ? 0 : n.get();
    }

    private void inc(String key) {
      counts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void checked(String outcome) {
      inc("checked:" + outcome);
    }

    @Override
    public void leaseLost(String table) {
      inc("leaseLost:" + table);
    }

    @Override
    public void suspected(SuspicionSource source, boolean created) {
      inc("suspected:" + source + ":" + created);
    }

    @Override
    public void contradiction(long flowId) {
      inc("contradiction");
    }
  }
}
