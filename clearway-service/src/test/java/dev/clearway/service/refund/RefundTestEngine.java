package dev.clearway.service.refund;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.flow.port.WalletGateway;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.engine.RefundAdvanceResult;
import dev.clearway.core.refund.engine.RefundAdvancer;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.refund.port.RefundStore.CreateOutcome;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.service.testkit.RecordingWakeups;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The refund engine wired with plain constructors over the flow engine's test harness: the shared
 * embedded PostgreSQL, a {@code MutableClock}, the harness's scripted wallet (or another one) and
 * recording wake-ups. Flows reach BIZ_SUCCESS through the real payment engine first, so the wallet
 * knows the charge that the refunds go back against.
 */
final class RefundTestEngine {
  /** Compressed timing with a small retry budget and a long escalated interval. */
  static final EngineConfig CONFIG =
      new EngineConfig(
          Duration.ofMillis(2_000),
          Duration.ofMillis(20),
          Duration.ofMillis(800),
          3,
          Duration.ofSeconds(60),
          Duration.ofMillis(100),
          50,
          Duration.ofMillis(100));

  final EngineHarness h;
  final JdbcRefundStore refunds;
  final RecordingWakeups wakeups = new RecordingWakeups();
  final Counting events = new Counting();
  final LeaseTokens leases;
  final RefundAdvancer advancer;
  final Scanner scanner;
  final RefundService service;
  private final AtomicInteger crashes = new AtomicInteger();
  private final AtomicLong goals = new AtomicLong();

  private RefundTestEngine(EngineHarness h, WalletGateway wallet) {
    this.h = h;
    this.refunds = new JdbcRefundStore(h.dataSource, TestDatabase.get().dialect());
    this.leases = new LeaseTokens("r", h.clock, CONFIG);
    this.advancer =
        new RefundAdvancer(refunds, h.store, wallet, wakeups, events, leases, CONFIG, h.clock);
    this.scanner = new Scanner(refunds::claimDue, leases, CONFIG, events::scannerRound, h.clock);
    this.service = new RefundService(refunds, advancer, leases, events, h.clock);
  }

  /** A fresh database and a refund engine over the harness's scripted wallet. */
  static RefundTestEngine fresh() {
    EngineHarness h = EngineHarness.fresh(CONFIG);
    truncateRefunds(h);
    return new RefundTestEngine(h, h.wallet);
  }

  /** Another refund engine over the same harness and database, speaking to {@code wallet}. */
  RefundTestEngine withWallet(WalletGateway wallet) {
    return new RefundTestEngine(h, wallet);
  }

  static void truncateRefunds(EngineHarness h) {
    TestDatabase.get().truncate("refund_order_history", "refund_order", "outbox_event");
  }

  /** A flow paid and granted through the payment engine: BIZ_SUCCESS, charged at the wallet. */
  PayFlow paidFlow() {
    PayFlow flow =
        h.start(
                EngineHarness.goal("refund-goal-" + goals.incrementAndGet()),
                EngineHarness.T0.plus(Duration.ofHours(1)))
            .flow();
    assertThat(flow.status()).isEqualTo(FlowStatus.BIZ_SUCCESS);
    return flow;
  }

  static String numberOf(PayFlow flow, int seq) {
    return "a_" + flow.tradeOrderNo() + "_" + seq;
  }

  /** The synchronous entry in the caller's thread (a crash inside it is the sync worker's). */
  RefundOrder request(PayFlow flow, long amount, String key) {
    CreateOutcome outcome =
        service.request(new NewRefund(flow.id(), amount, "damaged", GoalKey.DEFAULT_MERCHANT, key));
    assertThat(outcome).isInstanceOf(CreateOutcome.Created.class);
    return ((CreateOutcome.Created) outcome).refund();
  }

  RefundOrder refund(long id) {
    return refunds.find(id).orElseThrow();
  }

  RefundAdvanceResult wake(long refundId) {
    return advancer.advance(refundId, Trigger.unclaimed(TriggerSource.WAKEUP));
  }

  /** One scanner round, each claimed refund advanced inline; a crash kills only its own worker. */
  int scan() {
    return scanner.runRound(
        (id, trigger) -> {
          try {
            advancer.advance(id, trigger);
          } catch (SimulatedCrash crash) {
            crashes.incrementAndGet();
          }
        });
  }

  int crashes() {
    return crashes.get();
  }

  /** to_status of every history row of a refund, in order. */
  List<String> path(long refundId) {
    List<String> path = new ArrayList<>();
    try (Connection c = h.dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT to_status FROM refund_order_history WHERE refund_id = ? ORDER BY id")) {
      ps.setLong(1, refundId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          path.add(rs.getString(1));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return path;
  }

  /** Counts what the refund engine reports. */
  static final class Counting implements RefundEvents {
    final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    int count(String key) {
      AtomicInteger n = counts.get(key);
      return n == null ? 0 : n.get();
    }

    private void inc(String key) {
      counts.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    @Override
    public void transitioned(RefundStatus from, RefundStatus to) {
      inc("transition:" + from + "->" + to);
    }

    @Override
    public void casConflict(RefundStatus intended, RefundStatus found, String outcome) {
      inc("cas:" + outcome);
    }

    @Override
    public void externalCall(String kind, String resultClass) {
      inc("call:" + kind);
    }

    @Override
    public void rescheduled(RefundStatus status, String errorCode) {
      inc("reschedule:" + status);
    }

    @Override
    public void abnormal(long refundId, String errorCode) {
      inc("abnormal");
    }

    @Override
    public void leaseLost(String table) {
      inc("leaseLost:" + table);
    }
  }
}
