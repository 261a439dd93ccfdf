package dev.clearway.core.modelcheck.flow;

import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryFlowStore;
import dev.clearway.core.modelcheck.world.ScriptedBusiness;
import dev.clearway.core.modelcheck.world.ScriptedWallet;
import java.util.List;

/** The mutable world of one step, made from a state and folded back into the next one. */
record FlowWorld(InMemoryFlowStore store, ScriptedWallet wallet, ScriptedBusiness business) {
  static final String OK = "ok";

  static FlowWorld of(FlowState state, Fencing fencing) {
    return new FlowWorld(
        new InMemoryFlowStore(fencing, state.store()),
        new ScriptedWallet(state.wallet()),
        new ScriptedBusiness(state.business(), state.now()));
  }

  /** Every outcome of a pending call: one for the store, the scripted choices for the world. */
  List<String> outcomes(Pending call) {
    return switch (call.port()) {
      case "WalletGateway" -> wallet.outcomes(call);
      case "BusinessGateway" -> business.outcomes(call);
      default -> List.of(OK);
    };
  }
}
