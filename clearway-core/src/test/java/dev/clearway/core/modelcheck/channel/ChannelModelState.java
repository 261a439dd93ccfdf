package dev.clearway.core.modelcheck.channel;

import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryChannelStore;
import dev.clearway.core.modelcheck.world.PspLedger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One state of the attempt / recovery-task machine: rows, the PSP, the clock, the workers. */
public record ChannelModelState(
    InMemoryChannelStore.Snapshot store, PspLedger psp, Instant now, List<WorkerState> workers) {

  ChannelModelState withWorker(int index, WorkerState worker) {
    List<WorkerState> next = new ArrayList<>(workers);
    next.set(index, worker);
    return new ChannelModelState(store, psp, now, List.copyOf(next));
  }

  ChannelModelState withWorld(ChannelWorld world) {
    return new ChannelModelState(world.store().snapshot(), world.psp().ledger(), now, workers);
  }

  ChannelModelState withPsp(PspLedger next) {
    return new ChannelModelState(store, next, now, workers);
  }

  ChannelModelState at(Instant time) {
    return new ChannelModelState(store, psp, time, workers);
  }

  boolean anyBusy() {
    return workers.stream().anyMatch(WorkerState::busy);
  }
}
