package dev.clearway.service.refundbatch;

import dev.clearway.core.flow.engine.EngineConfig;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.refund.engine.RefundAdvancer;
import dev.clearway.core.refund.engine.RefundService;
import dev.clearway.core.refund.port.RefundEvents;
import dev.clearway.core.refundbatch.domain.BatchScope;
import dev.clearway.core.refundbatch.domain.RefundBatch;
import dev.clearway.core.refundbatch.port.RefundBatchCommands;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Proposal;
import dev.clearway.core.refundbatch.port.RefundBatchCommands.Result;
import dev.clearway.core.runtime.LeaseTokens;
import dev.clearway.service.testkit.EngineHarness;
import dev.clearway.store.refund.JdbcRefundStore;
import dev.clearway.store.refundbatch.JdbcBatchRunStore;
import dev.clearway.store.refundbatch.JdbcRefundBatchCommands;
import dev.clearway.store.testing.TestDatabase;
import dev.clearway.store.testing.TestSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The batch runner's world over the shared embedded PostgreSQL: the refund engine (store, advancer,
 * synchronous entry) over the harness's scripted wallet and clock, the batch stores, and paid goals
 * inserted in bulk as BIZ_SUCCESS payments the wallet has charged.
 */
final class BatchRig {
  static final String MERCHANT = "shop-a";
  static final String SCENE = "concert-2030";
  static final long AMOUNT = 2_500;
  static final EngineConfig CONFIG = EngineConfig.compressed();

  final EngineHarness h = EngineHarness.fresh(CONFIG);
  final JdbcRefundStore refunds = new JdbcRefundStore(h.dataSource, TestDatabase.get().dialect());
  final RefundService refundService;
  final RefundBatchCommands commands =
      new JdbcRefundBatchCommands(h.dataSource, TestDatabase.get().dialect());
  final JdbcBatchRunStore runStore =
      new JdbcBatchRunStore(h.dataSource, TestDatabase.get().dialect());

  BatchRig() {
    TestDatabase.get()
        .truncate(
            "refund_batch_audit",
            "refund_batch_item",
            "refund_batch",
            "refund_order_history",
            "refund_order");
    LeaseTokens leases = new LeaseTokens("r", h.clock, CONFIG);
    RefundAdvancer advancer =
        new RefundAdvancer(
            refunds, h.store, h.wallet, h.wakeups, RefundEvents.NONE, leases, CONFIG, h.clock);
    refundService = new RefundService(refunds, advancer, leases, RefundEvents.NONE, h.clock);
  }

  /** {@code n} BIZ_SUCCESS payments of the scene, charged at the wallet; returns their ids. */
  List<Long> paidGoals(int n, String scene) {
    List<Long> ids = new ArrayList<>();
    String t0 = TestSql.timestamp(EngineHarness.T0);
    try (Connection c = h.dataSource.getConnection()) {
      TestSql.insertFlows(
          c,
          """
          merchant_id, user_id, scene, biz_key, attempt_no, trade_order_no, refund_order_no,
          status, version, amount, currency, biz_deadline_time, next_retry_time, created_at,
          updated_at""",
          """
          SELECT '%1$s', 7000 + g, '%2$s', CONCAT('%2$s-', g), 1, CONCAT('t_%2$s_', g),
                 CONCAT('r_t_%2$s_', g), 'BIZ_SUCCESS', 3, %3$d, 'CNY', %4$s, %4$s, %4$s, %4$s
            FROM %5$s
          """
              .formatted(MERCHANT, scene, AMOUNT, t0, TestSql.series(1, n, "g")));
      try (PreparedStatement ps =
          c.prepareStatement(
              "SELECT id, trade_order_no FROM pay_flow WHERE merchant_id = ? AND scene = ?"
                  + " ORDER BY id")) {
        ps.setString(1, MERCHANT);
        ps.setString(2, scene);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            ids.add(rs.getLong(1));
            h.wallet.pay(new ChargeRequest(rs.getString(2), 7000, AMOUNT, "CNY"));
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    // 10,000 rows appear at once in tables the earlier tests left small: a real database's
    // autovacuum analyzes them after such a load, and without it the planner would take the
    // proposal's join for a join of a few rows and scan the flows once per flow.
    exec(TestSql.analyze("pay_flow_fact", "pay_flow_state", "payment_attempt"));
    return ids;
  }

  /** A batch of the whole scene proposed by alice and approved by bob. */
  RefundBatch approvedBatch(String scene) {
    Result proposed =
        commands.propose(
            new Proposal(
                new BatchScope(MERCHANT, scene, null, null, null),
                "alice",
                "OPS-1",
                "activity cancelled"),
            h.clock.instant());
    RefundBatch batch = ((Result.Done) proposed).batch();
    return ((Result.Done) commands.approve(batch.id(), "bob", h.clock.instant())).batch();
  }

  long count(String sql, Object... params) {
    try (Connection c = h.dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < params.length; i++) {
        ps.setObject(i + 1, params[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  void exec(String sql) {
    try (Connection c = h.dataSource.getConnection();
        Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static Duration lease() {
    return Duration.ofSeconds(30);
  }
}
