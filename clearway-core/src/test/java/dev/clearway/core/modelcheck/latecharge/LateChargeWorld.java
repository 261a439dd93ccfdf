package dev.clearway.core.modelcheck.latecharge;

import dev.clearway.core.flow.domain.PayFlow;
import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.modelcheck.memory.InMemoryLateChargeStore;
import dev.clearway.core.modelcheck.memory.InMemoryRefundStore;
import dev.clearway.core.modelcheck.memory.Write;
import dev.clearway.core.modelcheck.world.ScriptedWallet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/** The mutable world of one step of the late-charge machine; the closed flow never changes. */
record LateChargeWorld(
    InMemoryLateChargeStore checks,
    InMemoryRefundStore refunds,
    InMemoryFlowStore flows,
    ScriptedWallet wallet) {

  static LateChargeWorld of(LateChargeModelState state, Fencing fencing) {
    PayFlow closed = LateChargeRig.CLOSED;
    LongFunction<Optional<PayFlow>> flow =
        id -> id == closed.id() ? Optional.of(closed) : Optional.empty();
    return new LateChargeWorld(
        new InMemoryLateChargeStore(fencing, state.checks(), flow),
        new InMemoryRefundStore(fencing, state.refunds(), flow),
        new InMemoryFlowStore(fencing, new InMemoryFlowStore.Snapshot(Map.of(1L, closed), 1)),
        new ScriptedWallet(state.wallet()));
  }

  List<String> outcomes(Pending call) {
    return call.port().equals("WalletGateway") ? wallet.outcomes(call) : List.of("ok");
  }

  void actingAs(String writer) {
    checks.actingAs(writer);
    refunds.actingAs(writer);
    flows.actingAs(writer);
  }

  /** Every row the step changed, in the three stores. */
  List<Write> writes() {
    List<Write> all = new ArrayList<>(checks.writes());
    all.addAll(refunds.writes());
    all.addAll(flows.writes());
    return all;
  }
}
