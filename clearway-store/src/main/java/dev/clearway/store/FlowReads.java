package dev.clearway.store;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.PayFlow;
import java.util.List;
import java.util.Optional;

/**
 * The flow store's reads of one payment (by id, by trade order number, by goal) for a database
 * where they cannot go through the view {@code pay_flow} or a UNION with the archive; {@link
 * SqlDialect#flowReads} says whether the database needs them, {@link JdbcFlowStore}'s own
 * statements run otherwise.
 */
public interface FlowReads {

  /**
   * The rows of the view {@code pay_flow} as a FROM item a sharding driver routes: the join of its
   * two tables, bound in the sharding layout; USING keeps the view's unqualified column names. The
   * same rows as the view on every database, so the lists and locking reads of the service use it
   * everywhere.
   */
  String SHARDED_ROWS = "pay_flow_fact JOIN pay_flow_state USING (id)";

  /** The flow, live or archived. */
  Optional<PayFlow> find(long flowId);

  /** The flow of a trade order number, live or archived. */
  Optional<PayFlow> findByOrderNo(String orderNo);

  /** Every attempt of the goal, live or archived, in attempt order. */
  List<PayFlow> findByGoal(GoalKey goal);
}
