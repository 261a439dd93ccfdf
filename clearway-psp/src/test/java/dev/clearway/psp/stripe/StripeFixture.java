package dev.clearway.psp.stripe;

import dev.clearway.core.channel.spi.AttemptRef;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.sim.psp.PspCharge;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.stripe.StripeSimOptions;
import dev.clearway.sim.psp.stripe.StripeSimServer;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/** One simulated Stripe account with compressed timing and an adapter pointed at it. */
final class StripeFixture implements AutoCloseable {
  static final String SECRET_KEY = "sk_test_contract";
  static final String WEBHOOK_SECRET = "whsec_contract";

  final StripeSimServer sim;
  final StripeAdapter adapter;

  StripeFixture() {
    this(StripeSimOptions.defaults(SECRET_KEY, WEBHOOK_SECRET).withTiming(StripeSimTiming.fast()));
  }

  StripeFixture(StripeSimOptions options) {
    this.sim = StripeSimServer.start(options);
    this.adapter = new StripeAdapter(config());
  }

  static StripeSimOptions options(PspFaults faults, StripeSimTiming timing) {
    return StripeSimOptions.defaults(SECRET_KEY, WEBHOOK_SECRET)
        .withFaults(faults)
        .withTiming(timing);
  }

  /** Connect 1 s, request 2 s: longer than the simulator's 300 ms hold. */
  StripeConfig config() {
    return StripeConfig.of(sim.baseUrl(), SECRET_KEY, WEBHOOK_SECRET)
        .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  static CreatePayment payment(String paymentMethod) {
    return payment(paymentMethod, 1_000);
  }

  static CreatePayment payment(String paymentMethod, long amount) {
    String id = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    return new CreatePayment(
        "att_" + id, "ord_" + id, amount, "EUR", paymentMethod, "contract test");
  }

  static AttemptRef byKey(CreatePayment p) {
    return new AttemptRef(p.idempotencyKey(), p.merchantReference(), null);
  }

  List<PspCharge> charges() {
    return sim.ledger();
  }

  long charged() {
    return sim.ledger().stream().filter(PspCharge::charged).count();
  }

  @Override
  public void close() {
    sim.close();
  }
}
