package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;
import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.KeyClaim;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * Creates an attempt of a goal in one statement (one commit, one round trip): the goal's attempts
 * are read in both tables, and only if none of them is live or done is an id drawn from the
 * sequence and the facts (with the order numbers the database derives from the new id, by the rule
 * of {@link OrderNumbers#derive}), the state held by the creator's lease and the history written. A
 * started attempt is written already in PAYING at version 1, with both history rows (creation and
 * WAIT_PAY to PAYING), as if created and moved by two commits; otherwise it is WAIT_PAY at version
 * 0 with the creation row.
 */
final class FlowCreation {

  private static final String KEY_MARK = "/* key claim */";

  private static final String TEMPLATE =
      """
      WITH prior AS (
        %1$s
      ), open AS (
        SELECT * FROM prior WHERE status NOT IN ('PAY_FAIL', 'CLOSED')
         ORDER BY attempt_no DESC LIMIT 1
      ), n AS (
        SELECT nextval('pay_flow_id_seq') AS id WHERE NOT EXISTS (SELECT 1 FROM open)
      ), numbered AS (
        SELECT id, pay_flow_trade_order_no(?, id) AS trade_order_no FROM n
      ), f AS (
        INSERT INTO pay_flow_fact (id, merchant_id, user_id, scene, biz_key, attempt_no,
               trade_order_no, refund_order_no, amount, currency, biz_deadline_time, created_at)
        SELECT id, ?, ?, ?, ?, (SELECT COALESCE(max(attempt_no), 0) + 1 FROM prior),
               trade_order_no, 'r_' || trade_order_no, ?, ?, ?, ?
          FROM numbered
        RETURNING *
      ), s AS (
        INSERT INTO pay_flow_state (id, status, version, next_retry_time, lease_owner, updated_at)
        SELECT id, ?, ?, ?, ?, ? FROM f
        RETURNING *
      ), h AS (
        INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
               refund_order_no, from_status, to_status, version, trigger_source, result_class,
               created_at)
        SELECT id, biz_key, attempt_no, trade_order_no, refund_order_no, e.from_status,
               e.to_status, e.version, ?, e.result_class, ?
          FROM f CROSS JOIN (VALUES (NULL, 'WAIT_PAY', 0, NULL),
                                    ('WAIT_PAY', 'PAYING', 1, 'START_PAY'))
                 AS e (from_status, to_status, version, result_class)
         WHERE e.version <= ?
      )%3$s
      SELECT true AS created, %2$s FROM f JOIN s USING (id)
      UNION ALL
      SELECT false, %2$s FROM open
      """
          .formatted(
              // Both tables in one statement (one snapshot): an archived attempt still counts for
              // attempt_no, and an archived success still answers its goal, so archiving never
              // opens the way to a second charge of a done goal.
              JdbcFlowStore.goalInBothTables(""), FLOW_COLUMNS, KEY_MARK);

  private static final String CREATE = TEMPLATE.replace(KEY_MARK, "");

  /**
   * The creation with an idempotency key's claim bound to the attempt answered (the new one, or the
   * goal's live or done one): a key already claimed makes the primary key refuse the whole
   * statement, so the key never exists without its attempt, nor a claimed key with a second one.
   */
  private static final String CREATE_CLAIMING =
      TEMPLATE.replace(
          KEY_MARK,
          """
          , k AS (
            INSERT INTO idempotency_key (merchant_id, idem_key, request_hash, state, flow_id,
                   locked_until, created_at, updated_at)
            SELECT ?, ?, ?, 'IN_FLIGHT', id, ?, ?, ?
              FROM (SELECT id FROM f UNION ALL SELECT id FROM open) answered
          )""");

  private FlowCreation() {}

  /**
   * The goal's live or done attempt if there is one, else the new attempt, in PAYING when {@code
   * started}. A concurrent creation of the same goal makes this throw a unique violation
   * (uk_biz_attempt, uk_live_attempt); nothing is written then.
   */
  static CreateResult create(
      DataSource dataSource, NewPayment payment, Lease lease, Instant now, boolean started)
      throws SQLException {
    return create(dataSource, payment, lease, now, started, null);
  }

  /**
   * {@link #create}, with {@code key} (when not null) claimed in the same statement; a key already
   * claimed makes it throw a unique violation (the key's primary key), and nothing is written.
   */
  static CreateResult create(
      DataSource dataSource,
      NewPayment payment,
      Lease lease,
      Instant now,
      boolean started,
      KeyClaim key)
      throws SQLException {
    GoalKey goal = payment.goal();
    FlowStatus status = started ? FlowStatus.PAYING : FlowStatus.WAIT_PAY;
    int version = started ? 1 : 0;
    try (Connection c = dataSource.getConnection();
        PreparedStatement ps = c.prepareStatement(key == null ? CREATE : CREATE_CLAIMING)) {
      JdbcFlowStore.bindGoalTwice(ps, goal);
      int i = 9;
      ps.setLong(i++, goal.userId());
      ps.setString(i++, goal.merchant());
      ps.setLong(i++, goal.userId());
      ps.setString(i++, goal.scene());
      ps.setString(i++, goal.bizKey());
      ps.setLong(i++, payment.amount());
      ps.setString(i++, payment.currency());
      ps.setObject(i++, ts(payment.bizDeadline()));
      ps.setObject(i++, ts(now));
      ps.setString(i++, status.name());
      ps.setInt(i++, version);
      ps.setObject(i++, ts(lease.until()));
      ps.setString(i++, lease.token());
      ps.setObject(i++, ts(now));
      ps.setString(i++, TriggerSource.SYNC.name());
      ps.setObject(i++, ts(now));
      ps.setInt(i++, version);
      if (key != null) {
        ps.setString(i++, key.merchant());
        ps.setString(i++, key.key());
        ps.setString(i++, key.requestHash());
        ps.setObject(i++, ts(key.lockedUntil()));
        ps.setObject(i++, ts(now));
        ps.setObject(i, ts(now));
      }
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new SQLException("create attempt: neither a new nor an existing attempt");
        }
        PayFlow flow = FlowRows.map(rs);
        return new CreateResult(flow, rs.getBoolean("created"));
      }
    }
  }
}
