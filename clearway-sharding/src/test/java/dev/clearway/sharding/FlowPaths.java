package dev.clearway.sharding;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.NewPayment;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.Lease;
import java.time.Instant;

/** Flows of the sharding tests created and moved along a path of statuses by a test's hand. */
final class FlowPaths {
  private FlowPaths() {}

  /**
   * A flow of {@code payment} created at {@code at} and moved through {@code path}, every write at
   * {@code at}: leased to "mover" for 30 seconds after each step, released by a terminal one.
   */
  static PayFlow along(FlowStore flows, NewPayment payment, Instant at, FlowStatus... path) {
    PayFlow f = flows.createAttempt(payment, new Lease("creator", at.plusSeconds(30)), at).flow();
    for (FlowStatus to : path) {
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
