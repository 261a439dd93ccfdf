package dev.clearway.store;

import static dev.clearway.store.Sql.ts;

import dev.clearway.core.flow.domain.FlowStatus;
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
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * A flow's creation on the MySQL family, in the caller's transaction: the goal's attempts read (an
 * open one answers), the facts row with the id its insert drew, the order numbers derived from that
 * id, the state, and the creation's history rows in one statement; the new row is built from what
 * was bound ({@link WrittenFlows}), not read back. How the goal's attempts are read is the
 * caller's: through the view unsharded, through the flow's two tables joined on a sharding driver
 * (which routes neither the view nor a UNION).
 */
final class MysqlFlowCreation {

  /** How a creation reads the goal's attempts. */
  interface Reads {
    /** Every attempt of the goal, live or archived, in attempt order. */
    List<PayFlow> goal(Connection c, GoalKey goal) throws SQLException;
  }

  private MysqlFlowCreation() {}

  static CreateResult create(
      Connection c, NewPayment payment, Lease lease, Instant now, boolean started, Reads reads)
      throws SQLException {
    GoalKey goal = payment.goal();
    List<PayFlow> prior = reads.goal(c, goal);
    Optional<PayFlow> open =
        prior.stream()
            .filter(f -> f.status() != FlowStatus.PAY_FAIL && f.status() != FlowStatus.CLOSED)
            .max(Comparator.comparingInt(PayFlow::attemptNo));
    if (open.isPresent()) {
      return new CreateResult(open.get(), false);
    }
    int attemptNo = prior.stream().mapToInt(PayFlow::attemptNo).max().orElse(0) + 1;
    long id = insertFact(c, payment, attemptNo, now);
    // The numbers derive from the id the insert drew: written once, in the same transaction.
    OrderNumbers numbers = OrderNumbers.derive(goal.userId(), id);
    MysqlFlowWrites.requireOne(
        MysqlFlowWrites.update(
            c,
            "UPDATE pay_flow_fact SET trade_order_no = ?, refund_order_no = ? WHERE id = ?",
            ps -> {
              ps.setString(1, numbers.tradeOrderNo());
              ps.setString(2, numbers.refundOrderNo());
              ps.setLong(3, id);
            }),
        "order numbers of " + id);
    // A started attempt is inserted already in PAYING at version 1 (the state has no insert
    // trigger; its update guard watches the moves that follow), as if created and moved.
    FlowStatus status = started ? FlowStatus.PAYING : FlowStatus.WAIT_PAY;
    MysqlFlowWrites.requireOne(
        MysqlFlowWrites.update(
            c,
            "INSERT INTO pay_flow_state (id, status, version, next_retry_time, lease_owner,"
                + " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            ps -> {
              ps.setLong(1, id);
              ps.setString(2, status.name());
              ps.setInt(3, started ? 1 : 0);
              ps.setObject(4, ts(WrittenFlows.stored(lease.until())));
              ps.setString(5, lease.token());
              ps.setObject(6, ts(WrittenFlows.stored(now)));
            }),
        "state of " + id);
    insertCreationHistory(c, id, goal, attemptNo, numbers, now, started);
    // Every column of the new row was bound above or is the state's default: built, not read.
    return new CreateResult(
        WrittenFlows.created(id, payment, attemptNo, numbers, status, started ? 1 : 0, lease, now),
        true);
  }

  /**
   * The history of a creation: from nothing to WAIT_PAY at version 0 and, for a started attempt,
   * WAIT_PAY to PAYING at version 1 (result START_PAY), in one statement.
   */
  private static void insertCreationHistory(
      Connection c,
      long id,
      GoalKey goal,
      int attemptNo,
      OrderNumbers numbers,
      Instant now,
      boolean started)
      throws SQLException {
    String row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    int rows = started ? 2 : 1;
    MysqlFlowWrites.requireRows(
        MysqlFlowWrites.update(
            c,
            """
            INSERT INTO pay_flow_history (flow_id, biz_key, attempt_no, trade_order_no,
                   refund_order_no, from_status, to_status, version, trigger_source, result_class,
                   created_at)
            VALUES """
                + (started ? row + ", " + row : row),
            ps -> {
              int i = 1;
              for (int version = 0; version < rows; version++) {
                ps.setLong(i++, id);
                ps.setString(i++, goal.bizKey());
                ps.setInt(i++, attemptNo);
                ps.setString(i++, numbers.tradeOrderNo());
                ps.setString(i++, numbers.refundOrderNo());
                ps.setString(i++, version == 0 ? null : FlowStatus.WAIT_PAY.name());
                ps.setString(i++, (version == 0 ? FlowStatus.WAIT_PAY : FlowStatus.PAYING).name());
                ps.setInt(i++, version);
                ps.setString(i++, TriggerSource.SYNC.name());
                ps.setString(i++, version == 0 ? null : "START_PAY");
                ps.setObject(i++, ts(now));
              }
            }),
        rows,
        "history of " + id);
  }

  private static long insertFact(Connection c, NewPayment payment, int attemptNo, Instant now)
      throws SQLException {
    GoalKey goal = payment.goal();
    try (PreparedStatement ps =
        c.prepareStatement(
            """
            INSERT INTO pay_flow_fact (merchant_id, user_id, scene, biz_key, attempt_no, amount,
                   currency, biz_deadline_time, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            new String[] {"id"})) {
      ps.setString(1, goal.merchant());
      ps.setLong(2, goal.userId());
      ps.setString(3, goal.scene());
      ps.setString(4, goal.bizKey());
      ps.setInt(5, attemptNo);
      ps.setLong(6, payment.amount());
      ps.setString(7, payment.currency());
      ps.setObject(8, ts(WrittenFlows.stored(payment.bizDeadline())));
      ps.setObject(9, ts(WrittenFlows.stored(now)));
      ps.executeUpdate();
      try (ResultSet keys = ps.getGeneratedKeys()) {
        keys.next();
        return keys.getLong(1);
      }
    }
  }
}
