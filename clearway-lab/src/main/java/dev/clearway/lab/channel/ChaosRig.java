package dev.clearway.lab.channel;

import dev.clearway.core.channel.engine.ChannelContext;
import dev.clearway.core.channel.engine.ChannelGateway;
import dev.clearway.core.channel.port.ChannelStores;
import dev.clearway.sim.psp.PspCharge;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One chaos run wired up: the store, the simulated channels, the engine's context and gateway, the
 * prefix of the run's order numbers and each account's channel name.
 */
record ChaosRig(
    ChannelStores store,
    SimChannels channels,
    ChannelContext ctx,
    ChannelGateway gateway,
    String prefix,
    Map<Long, String> channelOf) {

  /** The channel name of an account ({@code other} if unknown). */
  String channelName(long account) {
    return channelOf.getOrDefault(account, "other");
  }

  /** All the simulated PSPs' ledgers as they stand (the settlement reports' stand-in). */
  List<PspCharge> ledger() {
    List<PspCharge> ledger = new ArrayList<>();
    channels.sims().values().forEach(sim -> ledger.addAll(sim.ledger()));
    return ledger;
  }
}
