package dev.clearway.store;

import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.OrderNumbers;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore.CreateResult;
import dev.clearway.core.flow.port.FlowStore.Lease;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The writes of a flow that touch both of its tables (facts and state) and its history and outbox,
 * done by a database that cannot do them in one statement: each is several statements in one
 * transaction, one commit. {@link SqlDialect#flowWrites} says whether the database needs them; the
 * single statements of {@link JdbcFlowStore} and {@link FlowCreation} run otherwise.
 */
public interface FlowWrites {

  /**
   * The goal's live or done attempt if there is one, else a new attempt held by {@code lease}: in
   * WAIT_PAY at version 0 with its creation's history row, or, when {@code started}, in PAYING at
   * version 1 with the history rows of its creation and of WAIT_PAY to PAYING (one commit). A
   * concurrent creation of the same goal makes this throw a unique violation.
   */
  CreateResult create(NewPayment payment, Lease lease, Instant now, boolean started)
      throws SQLException;

  /** The CAS transition with its history row and its outbox event; empty when it wrote nothing. */
  Optional<PayFlow> transition(TransitionWrite w);

  /** Writes the order numbers of a flow that has none (nothing when it has them already). */
  void assignOrderNumbers(long flowId, OrderNumbers numbers, Instant now);
}
