package dev.clearway.sim.psp.stripe;

import dev.clearway.sim.psp.PspFaults;
import java.time.Clock;
import java.util.Objects;

/**
 * How one simulated Stripe account is served. {@link #toString()} never prints the keys.
 *
 * @param port 0 for an ephemeral port
 * @param account the simulated account id, such as {@code acct_sim}
 * @param secretKey the API key clients must send as {@code Authorization: Bearer <key>}
 * @param webhookSecret the signing secret of the webhook endpoint ({@code whsec_...})
 * @param clock the clock of {@code created} fields and webhook signature timestamps
 */
public record StripeSimOptions(
    int port,
    String account,
    String secretKey,
    String webhookSecret,
    Clock clock,
    PspFaults faults,
    StripeSimTiming timing) {

  public StripeSimOptions {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port out of range");
    }
    requireText(account, "account");
    requireText(secretKey, "secretKey");
    requireText(webhookSecret, "webhookSecret");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(faults, "faults");
    Objects.requireNonNull(timing, "timing");
  }

  /** Ephemeral port, account {@code acct_sim}, system clock, no faults, default timing. */
  public static StripeSimOptions defaults(String secretKey, String webhookSecret) {
    return new StripeSimOptions(
        0,
        "acct_sim",
        secretKey,
        webhookSecret,
        Clock.systemUTC(),
        PspFaults.none(),
        StripeSimTiming.defaults());
  }

  /** The port to listen on; 0 for an ephemeral one. */
  public StripeSimOptions withPort(int p) {
    return new StripeSimOptions(p, account, secretKey, webhookSecret, clock, faults, timing);
  }

  public StripeSimOptions withAccount(String id) {
    return new StripeSimOptions(port, id, secretKey, webhookSecret, clock, faults, timing);
  }

  public StripeSimOptions withClock(Clock c) {
    return new StripeSimOptions(port, account, secretKey, webhookSecret, c, faults, timing);
  }

  public StripeSimOptions withFaults(PspFaults f) {
    return new StripeSimOptions(port, account, secretKey, webhookSecret, clock, f, timing);
  }

  public StripeSimOptions withTiming(StripeSimTiming t) {
    return new StripeSimOptions(port, account, secretKey, webhookSecret, clock, faults, t);
  }

  @Override
  public String toString() {
    return "StripeSimOptions[port=" + port + ", account=" + account + ", keys=***]";
  }

  private static void requireText(String value, String name) {
    if (value == null || value.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
  }
}
