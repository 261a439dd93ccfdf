package dev.clearway.store.refund;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.refund.domain.NewRefund;
import dev.clearway.core.refund.domain.RefundOrder;
import dev.clearway.core.refund.domain.RefundStatus;
import dev.clearway.core.refund.port.RefundStore;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Flows, refunds and raw SQL for the refund store tests, on the shared embedded PostgreSQL. */
final class RefundFixtures {
  static final long PAID = 1_999;
  static final Duration LEASE = Duration.ofSeconds(30);
  private static final AtomicLong SEQ = new AtomicLong();

  private RefundFixtures() {}

  /** Empties pay_flow (and, by its foreign key, refund_order) and the refund history. */
  static void reset() {
    TestDatabase.get().reset();
    TestDatabase.get().truncate("refund_order_history", "refund_order", "outbox_event");
  }

  static JdbcFlowStore flows() {
    return TestDatabase.get().store();
  }

  static JdbcRefundStore refunds() {
    return new JdbcRefundStore(TestDatabase.get().dataSource(), TestDatabase.get().dialect());
  }

  static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.MICROS);
  }

  static Lease lease(String token, Instant now) {
    return new Lease(token, now.plus(LEASE));
  }

  /** The merchant that owns the fixtures' flows and requests their refunds. */
  static final String MERCHANT = "merchant-a";

  /** A new flow of {@link #MERCHANT} walked along {@code path} (empty path: WAIT_PAY). */
  static PayFlow flow(Instant now, FlowStatus... path) {
    return flowOf(MERCHANT, now, path);
  }

  /** A new flow of {@code merchant} walked along {@code path} with CAS transitions. */
  static PayFlow flowOf(String merchant, Instant now, FlowStatus... path) {
    long n = SEQ.incrementAndGet();
    GoalKey goal = new GoalKey(merchant, 2_000 + n, "renew", "refund-test-" + n);
    PayFlow f =
        flows()
            .createAttempt(
                new NewPayment(goal, PAID, "CNY", now.plus(Duration.ofHours(1))),
                lease("creator", now),
                now)
            .flow();
    for (FlowStatus to : path) {
      f =
          flows()
              .transition(
                  new TransitionWrite(
                      f,
                      to,
                      null,
                      to.isTerminal() ? now : now.plus(LEASE),
                      to.isTerminal() ? null : "mover",
                      new HistoryNote(TriggerSource.MANUAL, null, "TEST", 0),
                      now,
                      f.leaseOwner()))
              .orElseThrow();
    }
    return f;
  }

  static PayFlow bizSuccess(Instant now) {
    return flow(now, FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS);
  }

  static NewRefund request(PayFlow flow, long amount, String key) {
    return new NewRefund(flow.id(), amount, "damaged on arrival", MERCHANT, key);
  }

  /** A created refund, held by lease {@code creator}. */
  static RefundOrder created(PayFlow flow, long amount, String key, Instant now) {
    RefundStore.CreateOutcome outcome =
        refunds().create(request(flow, amount, key), lease("creator", now), now);
    if (!(outcome instanceof RefundStore.CreateOutcome.Created c)) {
      throw new AssertionError("expected a created refund, got " + outcome);
    }
    return c.refund();
  }

  static RefundStore.TransitionWrite write(RefundOrder from, RefundStatus to, Instant now) {
    return new RefundStore.TransitionWrite(
        from,
        to,
        null,
        to.isTerminal() ? now : now.plus(LEASE),
        to.isTerminal() ? null : from.leaseOwner(),
        new HistoryNote(TriggerSource.MANUAL, "req-1", "TEST", 3),
        now,
        from.leaseOwner());
  }

  static RefundOrder move(RefundOrder from, RefundStatus to, Instant now) {
    return refunds()
        .transition(write(from, to, now))
        .orElseThrow(() -> new AssertionError("transition " + from.status() + " -> " + to));
  }

  static int exec(String sql, Object... params) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, params);
      return ps.executeUpdate();
    } catch (SQLException e) {
      throw new RawSqlException(e);
    }
  }

  static long count(String sql, Object... params) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, params);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new RawSqlException(e);
    }
  }

  /** from -> to of every history row of a refund, in order ("null->PENDING" first). */
  static List<String> path(long refundId) {
    List<String> edges = new ArrayList<>();
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT from_status, to_status, version FROM refund_order_history"
                    + " WHERE refund_id = ? ORDER BY id")) {
      ps.setLong(1, refundId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          edges.add(rs.getString(1) + "->" + rs.getString(2) + "@" + rs.getLong(3));
        }
      }
    } catch (SQLException e) {
      throw new RawSqlException(e);
    }
    return edges;
  }

  static void execScript(String sql) {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new RawSqlException(e);
    }
  }

  private static void bind(PreparedStatement ps, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      Object p = params[i];
      ps.setObject(i + 1, p instanceof Instant t ? t.atOffset(ZoneOffset.UTC) : p);
    }
  }

  /** A refused raw statement, with PostgreSQL's SQLSTATE and message kept for assertions. */
  static final class RawSqlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RawSqlException(SQLException cause) {
      super(cause.getSQLState() + " " + cause.getMessage(), cause);
    }
  }
}
