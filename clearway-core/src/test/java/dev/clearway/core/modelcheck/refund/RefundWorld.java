package dev.clearway.core.modelcheck.refund;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.world.ScriptedWallet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The mutable world of one step of the refund machine; the paid flow never changes. */
record RefundWorld(InMemoryRefundStore store, InMemoryFlowStore flows, ScriptedWallet wallet) {

  static RefundWorld of(RefundModelState state, Fencing fencing) {
    PayFlow paid = RefundRig.PAID;
    InMemoryFlowStore flows =
        new InMemoryFlowStore(fencing, new InMemoryFlowStore.Snapshot(Map.of(paid.id(), paid), 1));
    return new RefundWorld(
        new InMemoryRefundStore(
            fencing, state.refunds(), id -> id == paid.id() ? Optional.of(paid) : Optional.empty()),
        flows,
        new ScriptedWallet(state.wallet()));
  }

  List<String> outcomes(Pending call) {
    return call.port().equals("WalletGateway") ? wallet.outcomes(call) : List.of("ok");
  }
}
