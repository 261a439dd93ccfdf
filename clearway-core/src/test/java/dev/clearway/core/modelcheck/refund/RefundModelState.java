package dev.clearway.core.modelcheck.refund;

import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.world.WalletLedger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One state of the refund-order machine: the refund rows, the wallet, the clock, the workers. */
public record RefundModelState(
    InMemoryRefundStore.Snapshot refunds,
    WalletLedger wallet,
    Instant now,
    List<WorkerState> workers) {

  RefundModelState withWorker(int index, WorkerState worker) {
    List<WorkerState> next = new ArrayList<>(workers);
    next.set(index, worker);
    return new RefundModelState(refunds, wallet, now, List.copyOf(next));
  }

  RefundModelState withWorld(RefundWorld world) {
    return new RefundModelState(world.store().snapshot(), world.wallet().ledger(), now, workers);
  }

  RefundModelState at(Instant time) {
    return new RefundModelState(refunds, wallet, time, workers);
  }

  boolean anyBusy() {
    return workers.stream().anyMatch(WorkerState::busy);
  }
}
