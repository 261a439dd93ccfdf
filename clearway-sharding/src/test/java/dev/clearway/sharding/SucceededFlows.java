package dev.clearway.sharding;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.port.FlowStore;
import java.time.Duration;
import java.time.Instant;

/** Flows of the sharding tests created and moved through PAYING and PAYED to BIZ_SUCCESS. */
final class SucceededFlows {
  private SucceededFlows() {}

  /**
   * A payment of {@code amount} EUR for {@code goal}, paid and granted, every write at {@code at}.
   */
  static PayFlow create(FlowStore flows, GoalKey goal, long amount, Instant at) {
    return FlowPaths.along(
        flows,
        new NewPayment(goal, amount, "EUR", at.plus(Duration.ofHours(1))),
        at,
        FlowStatus.PAYING,
        FlowStatus.PAYED,
        FlowStatus.BIZ_SUCCESS);
  }
}
