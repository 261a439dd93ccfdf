package dev.clearway.core.modelcheck.channel;

import dev.clearway.core.channel.domain.Attempt;
import dev.clearway.core.channel.domain.AttemptStatus;
import dev.clearway.core.channel.domain.RecoveryTask;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryChannelStore;
import dev.clearway.core.modelcheck.world.PspLedger;
import dev.clearway.core.modelcheck.world.PspLedger.State;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where an attempt exploration starts: the create about to be sent (its task already inserted,
 * LEASED to the creating call until the create's grace ends), or an attempt recorded UNKNOWN or
 * PENDING whose task is due, with every state the PSP may hold for its key.
 */
public enum ChannelStage {
  NEW_ATTEMPT,
  UNKNOWN,
  PENDING;

  List<ChannelModelState> initial(List<WorkerState> workers, int payerIndex) {
    List<ChannelModelState> states = new ArrayList<>();
    if (this == NEW_ATTEMPT) {
      List<WorkerState> first = new ArrayList<>(workers);
      WorkerState creator = first.get(payerIndex).start(ChannelRig.CREATE);
      first.set(payerIndex, creator);
      Instant graceEnds = ChannelRig.T0.plus(ChannelRig.GRACE);
      states.add(
          new ChannelModelState(
              store(
                  ChannelRig.CREATED,
                  ChannelRig.createdTask(graceEnds, ChannelRig.creationLease(creator))),
              PspLedger.of(State.NONE),
              ChannelRig.T0,
              List.copyOf(first)));
      return states;
    }
    Instant now = ChannelRig.T0.plus(ChannelRig.GRACE);
    AttemptStatus status = this == UNKNOWN ? AttemptStatus.UNKNOWN : AttemptStatus.PENDING;
    for (State psp : State.values()) {
      if (this == PENDING && psp == State.NONE) {
        continue; // the PSP said PENDING: it has the payment
      }
      states.add(
          new ChannelModelState(
              store(ChannelRig.attempt(status, 1), ChannelRig.task(now, 1)),
              PspLedger.of(psp),
              now,
              workers));
    }
    return states;
  }

  private static InMemoryChannelStore.Snapshot store(Attempt attempt, RecoveryTask task) {
    return new InMemoryChannelStore.Snapshot(
        ChannelRig.ACCOUNT, ChannelRig.ORDER, attempt, task, 0, 0, Map.of());
  }
}
