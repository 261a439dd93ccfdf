package dev.clearway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.store.testing.FlowRowInsert;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Rows, payments and raw SQL for the store tests; all against the shared embedded PostgreSQL. */
final class StoreFixtures {
  static final Duration LEASE = Duration.ofSeconds(30);
  private static final AtomicLong SEQ = new AtomicLong();

  private StoreFixtures() {}

  static JdbcFlowStore store() {
    return TestDatabase.get().store();
  }

  /** Now, at the microsecond precision of TIMESTAMPTZ, so that round trips compare equal. */
  static Instant now() {
    return Instant.now().truncatedTo(ChronoUnit.MICROS);
  }

  static GoalKey newGoal() {
    long n = SEQ.incrementAndGet();
    return GoalKey.ofDefaultMerchant(
        1_000 + n, "renew", "R:" + (1_000 + n) + ":73:2024-05-01:" + n);
  }

  static NewPayment payment(GoalKey goal, Instant now) {
    return new NewPayment(goal, 1_999L, "CNY", now.plus(Duration.ofHours(1)));
  }

  static Lease lease(String token, Instant now) {
    return new Lease(token, now.plus(LEASE));
  }

  /** A created attempt of a new goal, held by lease {@code creator} until now + 30 s. */
  static PayFlow created(Instant now) {
    return store().createAttempt(payment(newGoal(), now), lease("creator", now), now).flow();
  }

  static TransitionWrite write(PayFlow from, FlowStatus to, Instant now) {
    return new TransitionWrite(
        from,
        to,
        null,
        to.isTerminal() ? now : now.plus(LEASE),
        to.isTerminal() ? null : "mover",
        new HistoryNote(TriggerSource.MANUAL, null, "TEST", 0),
        now,
        from.leaseOwner());
  }

  /** A CAS transition that must succeed. */
  static PayFlow move(PayFlow from, FlowStatus to, Instant now) {
    return store()
        .transition(write(from, to, now))
        .orElseThrow(() -> new AssertionError("transition " + from.status() + " -> " + to));
  }

  /** Walks a row along the given statuses with CAS transitions. */
  static PayFlow walk(PayFlow from, Instant now, FlowStatus... path) {
    PayFlow f = from;
    for (FlowStatus to : path) {
      f = move(f, to, now);
    }
    return f;
  }

  static PayFlow reload(PayFlow flow) {
    return store().find(flow.id()).orElseThrow();
  }

  /**
   * Inserts a row the way a crashed creator leaves it: no order numbers, no history, no lease.
   * Inserts are not guarded by the trigger, so any status may be planted this way.
   */
  static long insertRaw(GoalKey goal, int attemptNo, FlowStatus status, Instant nextRetryTime)
      throws SQLException {
    return FlowRowInsert.of(goal.bizKey(), attemptNo, status.name(), now())
        .owner("default", goal.userId(), goal.scene())
        .money(1999, "CNY")
        .due(nextRetryTime)
        .insert(TestDatabase.get().dataSource());
  }

  /** Runs raw SQL with positional parameters; Instants are bound as TIMESTAMPTZ. */
  static int exec(String sql, Object... params) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, params);
      return ps.executeUpdate();
    }
  }

  static long count(String sql, Object... params) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, params);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  static String leaseOwner(long flowId) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement("SELECT lease_owner FROM pay_flow WHERE id = ?")) {
      ps.setLong(1, flowId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getString(1);
      }
    }
  }

  private static void bind(PreparedStatement ps, Object... params) throws SQLException {
    for (int i = 0; i < params.length; i++) {
      Object p = params[i];
      ps.setObject(i + 1, p instanceof Instant t ? t.atOffset(ZoneOffset.UTC) : p);
    }
  }

  /** One row of pay_flow_history. */
  record HistoryRow(
      long flowId,
      String bizKey,
      int attemptNo,
      String tradeOrderNo,
      String refundOrderNo,
      String fromStatus,
      String toStatus,
      long version,
      String triggerSource,
      String requestId,
      String resultClass,
      String errorCode,
      long elapsedMs,
      Instant createdAt) {}

  static List<HistoryRow> history(long flowId) throws SQLException {
    try (Connection c = TestDatabase.get().dataSource().getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT flow_id, biz_key, attempt_no, trade_order_no, refund_order_no,"
                    + " from_status, to_status, version, trigger_source, request_id,"
                    + " result_class, error_code, elapsed_ms, created_at"
                    + " FROM pay_flow_history WHERE flow_id = ? ORDER BY id")) {
      ps.setLong(1, flowId);
      List<HistoryRow> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(
              new HistoryRow(
                  rs.getLong(1),
                  rs.getString(2),
                  rs.getInt(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6),
                  rs.getString(7),
                  rs.getLong(8),
                  rs.getString(9),
                  rs.getString(10),
                  rs.getString(11),
                  rs.getString(12),
                  rs.getLong(13),
                  FlowRows.instant(rs, "created_at")));
        }
      }
      return rows;
    }
  }

  static long historyCount() throws SQLException {
    return count("SELECT count(*) FROM pay_flow_history");
  }

  // ---- concurrency
  // -------------------------------------------------------------------------------

  @FunctionalInterface
  interface IndexedCall<T> {
    T call(int i) throws Exception;
  }

  /** Runs {@code n} calls released at once by one latch; rethrows the first failure. */
  static <T> List<T> race(ExecutorService pool, int n, IndexedCall<T> call) throws Exception {
    CountDownLatch ready = new CountDownLatch(n);
    CountDownLatch go = new CountDownLatch(1);
    List<Future<T>> futures = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int index = i;
      Callable<T> task =
          () -> {
            ready.countDown();
            go.await();
            return call.call(index);
          };
      futures.add(pool.submit(task));
    }
    assertThat(ready.await(10, TimeUnit.SECONDS)).isTrue();
    go.countDown();
    List<T> results = new ArrayList<>();
    for (Future<T> f : futures) {
      results.add(f.get(60, TimeUnit.SECONDS));
    }
    return results;
  }
}
