package dev.clearway.sharding;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import java.time.Duration;
import java.time.Instant;

/** Flows of the sharding tests created and moved through PAYING and PAYED to BIZ_SUCCESS. */
final class SucceededFlows {
  private SucceededFlows() {}

  /**
   * A payment of {@code amount} EUR for {@code goal}, paid and granted, every write at {@code at}.
   */
  static PayFlow create(FlowStore flows, GoalKey goal, long amount, Instant at) {
    PayFlow f =
        flows
            .createAttempt(
                new NewPayment(goal, amount, "EUR", at.plus(Duration.ofHours(1))),
                new Lease("creator", at.plusSeconds(30)),
                at)
            .flow();
    for (FlowStatus to :
        new FlowStatus[] {FlowStatus.PAYING, FlowStatus.PAYED, FlowStatus.BIZ_SUCCESS}) {
      f =
          flows
              .transition(
                  new FlowStore.TransitionWrite(
                      f,
                      to,
                      null,
                      to.isTerminal() ? at : at.plusSeconds(30),
                      to.isTerminal() ? null : "mover",
                      new HistoryNote(TriggerSource.MANUAL, null, "TEST", 0),
                      at,
                      f.leaseOwner()))
              .orElseThrow();
    }
    return f;
  }
}
