package dev.clearway.store.reconciliation;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptOrigin;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.domain.PaymentOrder;
import dev.clearway.core.channel.engine.AttemptRecorder;
import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.PacedRateLimiter;
import dev.clearway.core.channel.policy.Operation;
import dev.clearway.core.channel.policy.PolicyRule;
import dev.clearway.core.channel.port.AttemptStore.NewAttempt;
import dev.clearway.core.channel.port.AttemptStore.NewTask;
import dev.clearway.core.channel.port.ChannelEvents;
import dev.clearway.core.channel.port.ChannelHealth;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.core.channel.port.RecoveryPolicies;
import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.reconciliation.engine.EngineRepairs;
import dev.clearway.core.reconciliation.engine.RepairTargets;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.channel.JdbcChannelStores;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The real stores on the shared embedded PostgreSQL, the channel layer's recorder over them, and
 * the engine repairs wired to both; flows and attempts made the way the engines make them.
 */
final class RepairRig {
  static final long AMOUNT = 1_250;
  static final String CURRENCY = "EUR";
  private static final AtomicLong SEQ = new AtomicLong();

  final Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
  final Clock clock = Clock.fixed(now, ZoneOffset.UTC);
  final DataSource dataSource = TestDatabase.get().dataSource();
  final JdbcFlowStore flows = TestDatabase.get().store();
  final JdbcRefundStore refunds = new JdbcRefundStore(dataSource);
  final ChannelStores channel = JdbcChannelStores.create(dataSource);
  final List<Long> wokenFlows = new CopyOnWriteArrayList<>();
  final List<String> finalAttempts = new CopyOnWriteArrayList<>();
  final LeaseTokens leases = new LeaseTokens("recon-test", clock, EngineConfig.compressed());
  final EngineRepairs repairs;

  RepairRig() {
    ChannelContext ctx =
        new ChannelContext(
            channel,
            id -> {
              throw new IllegalArgumentException("no adapter is called by a repair");
            },
            ChannelHealth.ALWAYS,
            new NoPolicies(),
            new PacedRateLimiter(),
            ChannelEvents.NONE,
            clock,
            finalAttempts::add,
            Duration.ofSeconds(10));
    repairs =
        new EngineRepairs(
            new RepairTargets(
                flows,
                channel.attempts(),
                new AttemptRecorder(ctx),
                refunds,
                request -> refunds.create(request, leases.next(), now),
                (flowId, at) -> wokenFlows.add(flowId),
                leases));
  }

  /** Empties the flow, refund and channel tables and inserts channel account 1. */
  RepairRig reset() {
    TestDatabase.get().reset();
    execute("TRUNCATE refund_order_history, refund_order RESTART IDENTITY CASCADE");
    execute(
        "TRUNCATE payment_attempt_history, provider_evidence, recovery_task,"
            + " attempt_compensation, channel_refund, channel_webhook_inbox, payment_attempt,"
            + " payment_order, channel_account CASCADE");
    channel
        .accounts()
        .upsertAccount(new ChannelAccount(1, "stripe", "acct_1", "psp:a", Set.of("card"), 1, true));
    return this;
  }

  /** A new flow walked along {@code path} by the engine's own leased transitions. */
  PayFlow flow(FlowStatus... path) {
    long n = SEQ.incrementAndGet();
    GoalKey goal = new GoalKey("merchant-r", 7_000 + n, "renew", "recon-" + n);
    PayFlow f =
        flows
            .createAttempt(
                new NewPayment(goal, AMOUNT, CURRENCY, now.plus(Duration.ofHours(1))),
                new Lease("creator", now.minusSeconds(1)),
                now.minusSeconds(60))
            .flow();
    for (FlowStatus to : path) {
      f =
          flows
              .transition(
                  new TransitionWrite(
                      f,
                      to,
                      null,
                      now.minusSeconds(1),
                      null,
                      new HistoryNote(TriggerSource.SYNC, null, "TEST", 0),
                      now.minusSeconds(30),
                      f.leaseOwner()))
              .orElseThrow();
    }
    return f;
  }

  /** The order and a live attempt of the flow's trade order, as the gateway inserts them. */
  Attempt attemptOf(PayFlow flow) {
    channel
        .orders()
        .openOrder(new PaymentOrder(flow.tradeOrderNo(), AMOUNT, CURRENCY, "card", false), now);
    return channel
        .attempts()
        .insertAttempt(
            new NewAttempt(
                flow.tradeOrderNo(),
                1,
                AttemptOrigin.INITIAL,
                null,
                "",
                new Attempt.Money(AMOUNT, CURRENCY, "pm_card_visa"),
                id -> new String[] {"key" + id, "0".repeat(64)}),
            new NewTask("RETRIEVE", now.minusSeconds(5), "v1", "creator/1"),
            now.minusSeconds(60))
        .orElseThrow();
  }

  PayFlow reread(PayFlow flow) {
    return flows.find(flow.id()).orElseThrow();
  }

  long count(String sql, Object... params) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  void execute(String sql) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.execute();
    } catch (SQLException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** No recovery policy: a repair's record makes the attempt final and needs none. */
  private static final class NoPolicies implements RecoveryPolicies {
    @Override
    public String versionFor(String attemptKey) {
      return "v1";
    }

    @Override
    public Optional<PolicyRule> rule(
        String version, String channel, String paymentMethod, Operation op) {
      return Optional.empty();
    }
  }
}
