package dev.clearway.core.modelcheck.latecharge;

import dev.clearway.core.latecharge.domain.LateChargeCheck;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryLateChargeStore;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.world.WalletLedger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** One state of the late-charge machine: the check, the refunds, the wallet, clock and workers. */
public record LateChargeModelState(
    InMemoryLateChargeStore.Snapshot checks,
    InMemoryRefundStore.Snapshot refunds,
    WalletLedger wallet,
    Instant now,
    List<WorkerState> workers) {

  LateChargeCheck check() {
    return checks.rows().get(LateChargeRig.CHECK_ID);
  }

  LateChargeModelState withWorker(int index, WorkerState worker) {
    List<WorkerState> next = new ArrayList<>(workers);
    next.set(index, worker);
    return new LateChargeModelState(checks, refunds, wallet, now, List.copyOf(next));
  }

  LateChargeModelState withWorld(LateChargeWorld world) {
    return new LateChargeModelState(
        world.checks().snapshot(),
        world.refunds().snapshot(),
        world.wallet().ledger(),
        now,
        workers);
  }

  LateChargeModelState at(Instant time) {
    return new LateChargeModelState(checks, refunds, wallet, time, workers);
  }

  boolean anyBusy() {
    return workers.stream().anyMatch(WorkerState::busy);
  }
}
