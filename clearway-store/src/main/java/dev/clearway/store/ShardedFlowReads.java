package dev.clearway.store;

import static dev.clearway.store.PostgresDialect.FLOW_COLUMNS;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The flow's reads through a sharding driver (ShardingSphere-JDBC over MySQL-family databases),
 * which cannot route a view: the view {@code pay_flow} is written out as the join of its two
 * tables, {@code pay_flow_fact JOIN pay_flow_state USING (id)}, which the layout declares binding
 * tables (same shard for the same id), so the join reaches one physical pair; USING keeps the
 * unqualified column names of the view. The archive is read by a statement of its own: a UNION of
 * the two is routed to every combination of their physical tables, not to the payment's shard.
 */
final class ShardedFlowReads implements FlowReads {

  private static final String FLOW_ROWS = SHARDED_ROWS;

  private static final String GOAL =
      " WHERE merchant_id = ? AND user_id = ? AND scene = ? AND biz_key = ?";

  private final DataSource dataSource;

  ShardedFlowReads(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  @Override
  public Optional<PayFlow> find(long flowId) {
    return read(c -> hotThenArchive(c, "id = ?", ps -> ps.setLong(1, flowId)), "find " + flowId);
  }

  @Override
  public Optional<PayFlow> findByOrderNo(String orderNo) {
    if (OrderNumbers.flowIdOf(orderNo).isEmpty()) {
      // Not derived from a flow id: it names no shard, so no flow here carries it.
      return Optional.empty();
    }
    return read(
        c -> hotThenArchive(c, "trade_order_no = ?", ps -> ps.setString(1, orderNo)),
        "find " + orderNo);
  }

  @Override
  public List<PayFlow> findByGoal(GoalKey goal) {
    return read(c -> goal(c, goal), "find goal");
  }

  private <T> T read(Sql.Work<T> work, String what) {
    try (Connection c = dataSource.getConnection()) {
      return work.run(c);
    } catch (SQLException e) {
      throw new StoreException(what, e);
    }
  }

  /** The live row, else the archived one. */
  static Optional<PayFlow> hotThenArchive(Connection c, String where, Sql.Binder binder)
      throws SQLException {
    List<PayFlow> hot =
        query(c, "SELECT " + FLOW_COLUMNS + " FROM " + FLOW_ROWS + " WHERE " + where, binder);
    if (!hot.isEmpty()) {
      return Optional.of(hot.get(0));
    }
    return query(c, "SELECT " + FLOW_COLUMNS + " FROM pay_flow_archive WHERE " + where, binder)
        .stream()
        .findFirst();
  }

  /** Every attempt of the goal in both tables (an archived one still counts), in attempt order. */
  static List<PayFlow> goal(Connection c, GoalKey goal) throws SQLException {
    Sql.Binder binder =
        ps -> {
          ps.setString(1, goal.merchant());
          ps.setLong(2, goal.userId());
          ps.setString(3, goal.scene());
          ps.setString(4, goal.bizKey());
        };
    List<PayFlow> rows =
        new ArrayList<>(query(c, "SELECT " + FLOW_COLUMNS + " FROM " + FLOW_ROWS + GOAL, binder));
    rows.addAll(query(c, "SELECT " + FLOW_COLUMNS + " FROM pay_flow_archive" + GOAL, binder));
    rows.sort(Comparator.comparingInt(PayFlow::attemptNo));
    return rows;
  }

  /** The live row of {@code id}, which the caller's transaction has just written. */
  static PayFlow row(Connection c, long id) throws SQLException {
    List<PayFlow> rows =
        query(
            c,
            "SELECT " + FLOW_COLUMNS + " FROM " + FLOW_ROWS + " WHERE id = ?",
            ps -> ps.setLong(1, id));
    if (rows.isEmpty()) {
      throw new SQLException("flow " + id + " vanished inside its own transaction");
    }
    return rows.get(0);
  }

  private static List<PayFlow> query(Connection c, String sql, Sql.Binder binder)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      binder.bind(ps);
      try (ResultSet rs = ps.executeQuery()) {
        List<PayFlow> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(FlowRows.map(rs));
        }
        return rows;
      }
    }
  }
}
