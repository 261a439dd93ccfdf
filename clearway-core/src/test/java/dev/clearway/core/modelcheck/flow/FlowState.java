package dev.clearway.core.modelcheck.flow;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.modelcheck.WorkerState;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.modelcheck.world.BusinessLedger;
import dev.clearway.core.modelcheck.world.WalletLedger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One state of the flow machine: the pay_flow rows, the wallet's and the business's ledgers, the
 * clock, every worker (between two steps) and how many commands people have approved.
 */
public record FlowState(
    InMemoryFlowStore.Snapshot store,
    WalletLedger wallet,
    BusinessLedger business,
    Instant now,
    List<WorkerState> workers,
    int commands) {

  public Optional<PayFlow> flow() {
    return Optional.ofNullable(store.rows().get(FlowRig.FLOW_ID));
  }

  FlowState withWorker(int index, WorkerState worker) {
    List<WorkerState> next = new ArrayList<>(workers);
    next.set(index, worker);
    return new FlowState(store, wallet, business, now, List.copyOf(next), commands);
  }

  FlowState withWorld(FlowWorld world) {
    return new FlowState(
        world.store().snapshot(),
        world.wallet().ledger(),
        world.business().ledger(),
        now,
        workers,
        commands);
  }

  FlowState at(Instant time) {
    return new FlowState(store, wallet, business, time, workers, commands);
  }

  FlowState withCommand() {
    return new FlowState(store, wallet, business, now, workers, commands + 1);
  }

  boolean anyBusy() {
    return workers.stream().anyMatch(WorkerState::busy);
  }
}
