package dev.clearway.lab.serve;

import dev.clearway.boot.ChannelAccounts;
import dev.clearway.core.channel.engine.PaymentMethods;
import dev.clearway.core.channel.port.AdapterRegistry;
import dev.clearway.lab.channel.SimChannels;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.store.Database;
import dev.clearway.store.channel.JdbcChannelStores;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code serve --channels}: two simulated Stripe-style PSP accounts in two failure domains, their
 * webhooks addressed to {@code /v1/channels/{id}/webhooks} of this service. The channel layer
 * itself is the service's own Spring configuration, exactly as an embedding application gets it:
 * this class only supplies the accounts, their adapters and the payment method.
 */
final class ServeChannels {
  private ServeChannels() {}

  /** Starts the simulated accounts; the caller closes them after the service. */
  static SimChannels start(Database db, int port) {
    SimChannels sims =
        new SimChannels(
            JdbcChannelStores.create(db.dataSource()),
            List.of(
                new SimChannels.AccountSpec(1, "psp:stripe-a", 1, new PspFaults(1)),
                new SimChannels.AccountSpec(2, "psp:stripe-b", 2, new PspFaults(2))),
            Duration.ofMillis(1_500),
            Duration.ofSeconds(3));
    sims.sims()
        .forEach(
            (id, sim) ->
                sim.webhookTarget(
                    URI.create("http://127.0.0.1:" + port + "/v1/channels/" + id + "/webhooks")));
    return sims;
  }

  /** The beans the channel configuration asks of its application. */
  static Map<String, Object> beans(SimChannels sims) {
    Map<String, Object> beans = new LinkedHashMap<>();
    beans.put("channelAccounts", new ChannelAccounts(sims.accounts()));
    beans.put("adapterRegistry", (AdapterRegistry) sims::adapter);
    beans.put("paymentMethods", PaymentMethods.fixed("card", "pm_card_visa"));
    return beans;
  }
}
