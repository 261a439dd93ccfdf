package dev.clearway.core.reconciliation.engine;

import dev.clearway.core.flow.domain.FlowStatus;
import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.flow.domain.Transitions;
import dev.clearway.core.flow.domain.TriggerSource;
import dev.clearway.core.flow.port.FlowStore;
import dev.clearway.core.flow.port.FlowStore.HistoryNote;
import dev.clearway.core.flow.port.FlowStore.TransitionWrite;
import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.reconciliation.domain.RepairOutcome;
import java.time.Instant;
import java.util.Optional;

/**
 * A repair's move of a flow: one legal transition written as a command (the same CAS on status and
 * version, the same history row and outbox event as every other transition). Like a person's
 * approved command it holds no lease: it bumps the version and releases the lease, so a worker that
 * read the row before it writes nothing after it, and the flow is due at once for its engine.
 */
final class FlowMoves {
  private final FlowStore flows;
  private final WakeupScheduler wakeups;

  FlowMoves(FlowStore flows, WakeupScheduler wakeups) {
    this.flows = flows;
    this.wakeups = wakeups;
  }

  /**
   * Moves flow {@code flowId} to {@code to} from the version the repair was decided on.
   *
   * @param resultClass what the history row records as the step's result (the repair's kind)
   */
  RepairOutcome move(long flowId, long version, FlowStatus to, String resultClass, Instant now) {
    Optional<PayFlow> found = flows.find(flowId);
    if (found.isEmpty()) {
      return RepairOutcome.refused("flow " + flowId + " not found");
    }
    PayFlow flow = found.get();
    if (Transitions.isSameOrLater(to, flow.status())) {
      return RepairOutcome.alreadyDone("flow already " + flow.status());
    }
    if (flow.version() != version) {
      return RepairOutcome.lostRace(
          "flow " + flowId + " moved to version " + flow.version() + " since " + version);
    }
    if (!Transitions.isLegal(flow.status(), to)) {
      return RepairOutcome.refused("flow " + flow.status() + " cannot move to " + to);
    }
    HistoryNote note =
        new HistoryNote(TriggerSource.RECONCILIATION, "recon-" + flowId, resultClass, 0);
    Optional<PayFlow> written =
        flows.transition(TransitionWrite.command(flow, to, null, note, now));
    if (written.isEmpty()) {
      return RepairOutcome.lostRace("flow " + flowId + " moved while it was repaired");
    }
    wakeups.schedule(flowId, now);
    return RepairOutcome.applied("flow " + flow.status() + " -> " + to);
  }

  /** Wakes a flow whose attempt a repair settled, so its engine reads the result at once. */
  void wake(long flowId, Instant now) {
    wakeups.schedule(flowId, now);
  }

  Optional<PayFlow> find(long flowId) {
    return flows.find(flowId);
  }
}
