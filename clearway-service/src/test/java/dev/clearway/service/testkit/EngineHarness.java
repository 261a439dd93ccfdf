package dev.clearway.service.testkit;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.engine.AdvanceResult;
import dev.clearway.core.flow.engine.Advancer;
import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.engine.PaymentService;
import dev.clearway.core.flow.engine.PaymentService.Started;
import dev.clearway.core.flow.engine.Scanner;
import dev.clearway.core.flow.engine.Trigger;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.store.JdbcFlowStore;
import dev.clearway.store.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * One engine over the shared embedded PostgreSQL, wired with plain constructors from test doubles:
 * a {@link MutableClock} at {@link #T0}, a {@link ScriptedWallet}, a {@link ScriptedBusiness}, a
 * recording wake-up scheduler and counting events. All goals belong to user {@link #USER}, so the
 * order numbers of flow {@code n} are {@link #numbers(long) numbers(n)}; ids restart at 1 after
 * {@link #fresh}.
 */
public final class EngineHarness {
  public static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");
  public static final long USER = 16;
  public static final long AMOUNT = 1_999;
  public static final String CURRENCY = "CNY";

  public final EngineConfig config;
  public final MutableClock clock = new MutableClock(T0);
  public final ScriptedWallet wallet = new ScriptedWallet(clock);
  public final ScriptedBusiness business = new ScriptedBusiness(clock);
  public final RecordingWakeups wakeups = new RecordingWakeups();
  public final CountingEvents events = new CountingEvents();
  public final JdbcFlowStore store = TestDatabase.get().store();
  public final DataSource dataSource = TestDatabase.get().dataSource();
  public final LeaseTokens leases;
  public final Advancer advancer;
  public final Scanner scanner;
  public final PaymentService payments;
  private final AtomicInteger crashes = new AtomicInteger();

  private EngineHarness(EngineConfig config) {
    this.config = config;
    this.leases = new LeaseTokens("t", clock, config);
    this.advancer = new Advancer(store, wallet, business, wakeups, events, leases, config, clock);
    this.scanner = new Scanner(store, leases, config, events, clock);
    this.payments = new PaymentService(store, advancer, leases, clock);
  }

  /** Empties the shared database (ids restart at 1) and wires a fresh engine at {@link #T0}. */
  public static EngineHarness fresh(EngineConfig config) {
    TestDatabase.get().reset();
    return new EngineHarness(config);
  }

  public static GoalKey goal(String bizKey) {
    return GoalKey.ofDefaultMerchant(USER, "renew", bizKey);
  }

  public static OrderNumbers numbers(long flowId) {
    return OrderNumbers.derive(USER, flowId);
  }

  public static String trade(long flowId) {
    return numbers(flowId).tradeOrderNo();
  }

  public static String refundNo(long flowId) {
    return numbers(flowId).refundOrderNo();
  }

  public static NewPayment payment(GoalKey goal, Instant deadline) {
    return new NewPayment(goal, AMOUNT, CURRENCY, deadline);
  }

  /** The synchronous entry. A {@link SimulatedCrash} propagates, as from a dying request thread. */
  public Started start(GoalKey goal, Instant deadline) {
    return payments.start(payment(goal, deadline));
  }

  /** A wake-up, callback or sync re-entry: the advance claims the flow itself. */
  public AdvanceResult advance(long flowId, TriggerSource source) {
    return advancer.advance(flowId, Trigger.unclaimed(source));
  }

  /**
   * One scanner round, each claimed flow advanced inline; a crashing flow kills only its own
   * "worker" (counted in {@link #crashes()}), as in the engine runtime.
   */
  public int scan() {
    return scanner.runRound(
        (id, trigger) -> {
          try {
            advancer.advance(id, trigger);
          } catch (SimulatedCrash crash) {
            crashes.incrementAndGet();
          }
        });
  }

  public int crashes() {
    return crashes.get();
  }

  public void countCrash() {
    crashes.incrementAndGet();
  }

  public PayFlow flow(long flowId) {
    return store.find(flowId).orElseThrow(() -> new AssertionError("no flow " + flowId));
  }

  public List<Long> flowIds() {
    List<Long> ids = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT id FROM pay_flow ORDER BY id");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return ids;
  }

  /** The flow whose trade or refund order number this is. */
  public Optional<Long> flowIdOf(String orderNo) {
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT id FROM pay_flow WHERE trade_order_no = ? OR refund_order_no = ?")) {
      ps.setString(1, orderNo);
      ps.setString(2, orderNo);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** One row of pay_flow_history. */
  public record Edge(
      String from, String to, long version, String trigger, String resultClass, String errorCode) {
    @Override
    public String toString() {
      return from + "->" + to + "@" + version + "(" + trigger + "," + errorCode + ")";
    }
  }

  public List<Edge> history(long flowId) {
    List<Edge> edges = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT from_status, to_status, version, trigger_source, result_class, error_code"
                    + " FROM pay_flow_history WHERE flow_id = ? ORDER BY id")) {
      ps.setLong(1, flowId);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          edges.add(
              new Edge(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getLong(3),
                  rs.getString(4),
                  rs.getString(5),
                  rs.getString(6)));
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return edges;
  }

  /** The statuses a flow went through, from its history. */
  public List<String> path(long flowId) {
    List<String> path = new ArrayList<>();
    for (Edge e : history(flowId)) {
      path.add(e.to());
    }
    return path;
  }
}
