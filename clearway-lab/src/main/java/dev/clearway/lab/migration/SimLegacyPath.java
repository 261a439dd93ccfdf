package dev.clearway.lab.migration;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.migration.domain.LegacyAnswer;
import dev.clearway.core.migration.port.LegacyMarkers;
import dev.clearway.sim.SimBusiness;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * A simulated legacy payment path: its payments in a {@code legacy_payment} table of the run's
 * database, its in-flight markers (set while it pays), and its own ledger of charges. A payment
 * sets its marker and its row (or only one of them), and completes later: paid (a charge in its
 * ledger, the row PAID, the business told) or failed (the row FAILED), the row written before the
 * marker is removed. Like a real payment system it keeps one payment per goal at a time.
 */
final class SimLegacyPath implements LegacyMarkers, AutoCloseable {
  /** The legacy store's query: payments in flight, and paid ones Clearway must not pay again. */
  static final String QUERY =
      "SELECT order_no FROM legacy_payment WHERE merchant = :merchant AND user_id = :userId"
          + " AND scene = :scene AND biz_key = :bizKey AND status IN ('PAYING', 'PAID')";

  /** What a legacy payment leaves while in flight. */
  enum Trace {
    MARKER_AND_ROW,
    MARKER_ONLY,
    ROW_ONLY
  }

  private final DataSource dataSource;
  private final SimBusiness business;
  private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(4);
  private final Map<GoalKey, String> markers = new ConcurrentHashMap<>();
  private final Map<GoalKey, CompletableFuture<Boolean>> current = new ConcurrentHashMap<>();
  private final Map<GoalKey, AtomicInteger> charges = new ConcurrentHashMap<>();
  private final AtomicInteger open = new AtomicInteger();

  SimLegacyPath(DataSource dataSource, SimBusiness business) {
    this.dataSource = dataSource;
    this.business = business;
  }

  /** Creates (or empties) the legacy table. */
  void createTable() {
    execute(
        "CREATE TABLE IF NOT EXISTS legacy_payment (order_no VARCHAR(64) PRIMARY KEY,"
            + " merchant VARCHAR(64) NOT NULL, user_id BIGINT NOT NULL, scene VARCHAR(64) NOT NULL,"
            + " biz_key VARCHAR(160) NOT NULL, status VARCHAR(16) NOT NULL)");
    execute("TRUNCATE legacy_payment");
  }

  /**
   * Pays the goal on the legacy path unless a legacy payment of it is in flight or paid (that one
   * is answered); completes after {@code doneMs}, paid when {@code pays}. True once paid.
   */
  CompletableFuture<Boolean> pay(
      GoalKey goal, String orderNo, Trace trace, long doneMs, boolean pays) {
    return current.compute(
        goal,
        (g, existing) ->
            existing != null && (!existing.isDone() || existing.join())
                ? existing
                : begin(g, orderNo, trace, doneMs, pays));
  }

  private CompletableFuture<Boolean> begin(
      GoalKey goal, String orderNo, Trace trace, long doneMs, boolean pays) {
    open.incrementAndGet();
    if (trace != Trace.ROW_ONLY) {
      markers.put(goal, orderNo);
    }
    if (trace != Trace.MARKER_ONLY) {
      row("INSERT INTO legacy_payment VALUES (?, ?, ?, ?, ?, 'PAYING')", orderNo, goal);
    }
    CompletableFuture<Boolean> outcome = new CompletableFuture<>();
    timer.schedule(
        () -> complete(goal, orderNo, trace, pays, outcome), doneMs, TimeUnit.MILLISECONDS);
    return outcome;
  }

  private void complete(
      GoalKey goal, String orderNo, Trace trace, boolean pays, CompletableFuture<Boolean> out) {
    try {
      String status = pays ? "PAID" : "FAILED";
      if (pays) {
        charges.computeIfAbsent(goal, g -> new AtomicInteger()).incrementAndGet();
        business.grantElsewhere(goal, orderNo);
      }
      if (trace == Trace.MARKER_ONLY) {
        row("INSERT INTO legacy_payment VALUES (?, ?, ?, ?, ?, '" + status + "')", orderNo, goal);
      } else {
        update(orderNo, status);
      }
      markers.remove(goal, orderNo);
      out.complete(pays);
    } catch (RuntimeException e) {
      out.completeExceptionally(e);
    } finally {
      open.decrementAndGet();
    }
  }

  @Override
  public LegacyAnswer probe(GoalKey goal) {
    String marker = markers.get(goal);
    return marker == null ? LegacyAnswer.clear() : LegacyAnswer.inFlight(marker);
  }

  /** The outcome of the goal's current legacy payment, if any. */
  CompletableFuture<Boolean> outcome(GoalKey goal) {
    return current.getOrDefault(goal, CompletableFuture.completedFuture(false));
  }

  /** Charges the legacy path made for the goal. */
  int charges(GoalKey goal) {
    AtomicInteger n = charges.get(goal);
    return n == null ? 0 : n.get();
  }

  /** Legacy payments still in flight. */
  int open() {
    return open.get();
  }

  int goalsCharged() {
    return charges.size();
  }

  private void row(String sql, String orderNo, GoalKey goal) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, orderNo);
      ps.setString(2, goal.merchant());
      ps.setLong(3, goal.userId());
      ps.setString(4, goal.scene());
      ps.setString(5, goal.bizKey());
      if (ps.executeUpdate() != 1) {
        throw new IllegalStateException("legacy row not written: " + orderNo);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("legacy row " + orderNo, e);
    }
  }

  private void update(String orderNo, String status) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "UPDATE legacy_payment SET status = ? WHERE order_no = ? AND status = 'PAYING'")) {
      ps.setString(1, status);
      ps.setString(2, orderNo);
      if (ps.executeUpdate() != 1) {
        throw new IllegalStateException("legacy payment not in flight: " + orderNo);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("legacy update " + orderNo, e);
    }
  }

  private void execute(String sql) {
    try (Connection c = dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql, e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
