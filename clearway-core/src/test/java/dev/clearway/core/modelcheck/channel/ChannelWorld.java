package dev.clearway.core.modelcheck.channel;

import dev.clearway.core.modelcheck.Pending;
import dev.clearway.core.modelcheck.memory.Fencing;
import dev.clearway.core.modelcheck.memory.InMemoryChannelStore;
import dev.clearway.core.modelcheck.world.ScriptedPsp;
import java.util.List;

/** The mutable world of one step of the attempt machine. */
record ChannelWorld(InMemoryChannelStore store, ScriptedPsp psp) {

  static ChannelWorld of(ChannelModelState state, Fencing fencing) {
    return new ChannelWorld(
        new InMemoryChannelStore(fencing, state.store()),
        new ScriptedPsp(state.psp(), ChannelRig.AMOUNT));
  }

  List<String> outcomes(Pending call) {
    return call.port().equals("PspAdapter") ? psp.outcomes(call) : List.of("ok");
  }
}
