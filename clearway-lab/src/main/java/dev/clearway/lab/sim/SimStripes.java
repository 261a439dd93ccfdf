package dev.clearway.lab.sim;

import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The two simulated Stripe-style PSP accounts of {@code clearway sim --channels}: channel account 1
 * ({@code acct_sim_1}) and 2 ({@code acct_sim_2}), in two failure domains, as {@code serve
 * --channels} registers them. Their webhooks go to {@code /v1/channels/{id}/webhooks} of every
 * callback host, any of them.
 */
final class SimStripes implements AutoCloseable {
  private final StripeSimServer a;
  private final StripeSimServer b;

  private SimStripes(StripeSimServer a, StripeSimServer b) {
    this.a = a;
    this.b = b;
  }

  /**
   * Starts account 1 on {@code portA} and account 2 on {@code portB} (0: free ports).
   *
   * @param callbackUrls the nodes' callback URLs; only their scheme, host and port are used
   */
  static SimStripes start(
      StripeKeys keys, long seed, int portA, int portB, List<URI> callbackUrls) {
    Objects.requireNonNull(keys, "keys");
    StripeSimServer a = account(keys, 1, seed, portA, callbackUrls);
    try {
      return new SimStripes(a, account(keys, 2, seed, portB, callbackUrls));
    } catch (RuntimeException e) {
      a.close();
      throw e;
    }
  }

  private static StripeSimServer account(
      StripeKeys keys, long id, long seed, int port, List<URI> callbackUrls) {
    StripeSimServer sim =
        StripeSimServer.start(
            StripeSimOptions.defaults(keys.apiKey(), keys.webhookSecret())
                .withPort(port)
                .withAccount("acct_sim_" + id)
                .withFaults(new PspFaults(seed * 31 + id))
                .withTiming(
                    new StripeSimTiming(
                        Duration.ofMillis(1_500),
                        Duration.ofMillis(200),
                        Duration.ZERO,
                        Duration.ZERO,
                        Duration.ofMillis(200),
                        5)));
    sim.webhookTargets(
        callbackUrls.stream()
            .map(url -> url.resolve("/v1/channels/" + id + "/webhooks"))
            .distinct()
            .toList());
    return sim;
  }

  StripeSimServer a() {
    return a;
  }

  StripeSimServer b() {
    return b;
  }

  @Override
  public void close() {
    a.close();
    b.close();
  }
}
