package dev.clearway.app.channel;

import dev.clearway.channels.stripe.StripeAdapter;
import dev.clearway.channels.stripe.StripeConfig;
import dev.clearway.core.channel.domain.ChannelAccount;
import dev.clearway.core.channel.spi.PspAdapter;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.SimPsp;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import dev.clearway.store.channel.JdbcChannelStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Simulated Stripe-style channel accounts served over real HTTP on loopback, each registered as a
 * channel account with its adapter. One account per failure domain.
 */
public final class SimChannels implements AutoCloseable {

  private static final String SECRET = "sk_test_clearway_sim";
  private static final String WEBHOOK_SECRET = "whsec_clearway_sim";

  private final Map<Long, SimPsp> sims = new LinkedHashMap<>();
  private final Map<Long, PspAdapter> adapters = new LinkedHashMap<>();
  private final List<ChannelAccount> accounts = new ArrayList<>();

  /** How one simulated account is set up. */
  public record AccountSpec(long id, String failureDomain, int priority, PspFaults faults) {}

  public SimChannels(
      JdbcChannelStore store,
      List<AccountSpec> specs,
      Duration lostResponseHold,
      Duration timeout) {
    for (AccountSpec spec : specs) {
      StripeSimServer sim =
          StripeSimServer.start(
              StripeSimOptions.defaults(SECRET, WEBHOOK_SECRET)
                  .withAccount("acct_sim_" + spec.id())
                  .withFaults(spec.faults())
                  .withTiming(
                      new StripeSimTiming(
                          lostResponseHold,
                          Duration.ofMillis(200),
                          Duration.ZERO,
                          Duration.ZERO,
                          Duration.ofMillis(200),
                          5)));
      ChannelAccount account =
          new ChannelAccount(
              spec.id(),
              "stripe",
              "acct_sim_" + spec.id(),
              spec.failureDomain(),
              Set.of("card"),
              spec.priority(),
              true);
      store.upsertAccount(account);
      accounts.add(account);
      sims.put(spec.id(), sim);
      adapters.put(
          spec.id(),
          new StripeAdapter(
              StripeConfig.of(sim.baseUrl(), SECRET, WEBHOOK_SECRET)
                  .withTimeouts(Duration.ofSeconds(2), timeout)));
    }
  }

  public PspAdapter adapter(long accountId) {
    PspAdapter adapter = adapters.get(accountId);
    if (adapter == null) {
      throw new IllegalArgumentException("no adapter for channel account " + accountId);
    }
    return adapter;
  }

  public SimPsp sim(long accountId) {
    return sims.get(accountId);
  }

  public Map<Long, SimPsp> sims() {
    return sims;
  }

  public List<ChannelAccount> accounts() {
    return accounts;
  }

  @Override
  public void close() {
    sims.values().forEach(SimPsp::close);
  }
}
