package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Creates an attempt of a goal in one statement (one commit): the goal's attempts are read in both
 * tables, and only if none of them is live or done are the facts (with the order numbers derived
 * from the new id), the WAIT_PAY state held by the creator's lease and the creation history row
 * written. The id is taken from the sequence first (in the same transaction), so that the numbers
 * are written with the row and never by a second version of it.
 */
final class FlowCreation {

  private static final String CREATE =
      """
      WITH prior AS (
        %1$s
      ), open AS (
        SELECT * FROM prior WHERE status NOT IN ('PAY_FAIL', 'CLOSED')
         ORDER BY attempt_no DESC LIMIT 1
      ), f AS (
        INSERT INTO pay_flow_fact (id, merchant_id, user_id, scene, biz_key, attempt_no,
               trade_order_no, refund_order_no, amount, currency, biz_deadline_time, created_at)
        SELECT ?, ?, ?, ?, ?, (SELECT COALESCE(max(attempt_no), 0) + 1 FROM prior), ?, ?, ?, ?, ?, ?
         WHERE NOT EXISTS (SELECT 1 FROM open)
        RETURNING *
      ), s AS (
        INSERT INTO pay_flow_state (id, status, next_retry_time, lease_owner, updated_at)
        SELECT id, 'WAIT_PAY', ?, ?, ? FROM f
        RETURNING *
      ), h AS (
        INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
               refund_order_no, from_status, to_status, version, trigger_source, created_at)
        SELECT id, biz_key, attempt_no, trade_order_no, refund_order_no, NULL, 'WAIT_PAY', 0, ?, ?
          FROM f
      )
      SELECT true AS created, %2$s FROM f JOIN s USING (id)
      UNION ALL
      SELECT false, %2$s FROM open
      """
          .formatted(
              // Both tables in one statement (one snapshot): an archived attempt still counts for
              // attempt_no, and an archived success still answers its goal, so archiving never
              // opens the way to a second charge of a done goal.
              JdbcFlowStore.goalInBothTables(""), FLOW_COLUMNS);

  private FlowCreation() {}

  /**
   * The goal's live or done attempt if there is one, else the new attempt. A concurrent creation of
   * the same goal makes this throw a unique violation (uk_biz_attempt, uk_live_attempt).
   */
  static CreateResult create(DataSource dataSource, NewPayment payment, Lease lease, Instant now)
      throws SQLException {
    // One transaction for the id and the row: one commit per creation.
    return Sql.inTransaction(dataSource, c -> create(c, payment, lease, now));
  }

  private static CreateResult create(Connection c, NewPayment payment, Lease lease, Instant now)
      throws SQLException {
    GoalKey goal = payment.goal();
    long id = nextId(c);
    OrderNumbers numbers = OrderNumbers.derive(goal.userId(), id);
    try (PreparedStatement ps = c.prepareStatement(CREATE)) {
      JdbcFlowStore.bindGoalTwice(ps, goal);
      int i = 9;
      ps.setLong(i++, id);
      ps.setString(i++, goal.merchant());
      ps.setLong(i++, goal.userId());
      ps.setString(i++, goal.scene());
      ps.setString(i++, goal.bizKey());
      ps.setString(i++, numbers.tradeOrderNo());
      ps.setString(i++, numbers.refundOrderNo());
      ps.setLong(i++, payment.amount());
      ps.setString(i++, payment.currency());
      ps.setObject(i++, ts(payment.bizDeadline()));
      ps.setObject(i++, ts(now));
      ps.setObject(i++, ts(lease.until()));
      ps.setString(i++, lease.token());
      ps.setObject(i++, ts(now));
      ps.setString(i++, TriggerSource.SYNC.name());
      ps.setObject(i, ts(now));
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("create attempt: neither a new nor an existing attempt");
        }
        PayFlow flow = FlowRows.map(rs);
        return new CreateResult(flow, rs.getBoolean("created"));
      }
    }
  }

  private static long nextId(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT nextval('pay_flow_id_seq')");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
