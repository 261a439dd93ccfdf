package dev.clearway.psp.stripe;

import static dev.clearway.psp.stripe.StripeFixture.byKey;
import static dev.clearway.psp.stripe.StripeFixture.options;
import static dev.clearway.psp.stripe.StripeFixture.payment;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.PspFaults.Outage;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Outages, black holes, lies and broken answers: only what Stripe proves is final. */
class StripeFaultContractTest {

  @Test
  void outageRefusesCreatesAsDefiniteFailoverEligibleFailure() {
    try (StripeFixture stripe = new StripeFixture()) {
      CreatePayment before = payment("pm_card_visa");
      stripe.adapter.create(before);
      stripe.sim.faults().outage(Outage.UNAVAILABLE);

      PspOutcome out = stripe.adapter.create(payment("pm_card_visa"));

      assertThat(out.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
      assertThat(out.errorCode()).isEqualTo("channel_unavailable");
      assertThat(out.failoverEligible()).isTrue();
      assertThat(stripe.charges()).hasSize(1);
      assertThat(stripe.adapter.retrieve(byKey(before)).certainty())
          .as("reads still work in an outage")
          .isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
      assertThat(stripe.adapter.create(before).certainty())
          .as("a key that executed before the outage replays its stored answer")
          .isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    }
  }

  @Test
  void outageRefusalIsNotStoredForTheKey() {
    try (StripeFixture stripe = new StripeFixture()) {
      CreatePayment p = payment("pm_card_visa");
      stripe.sim.faults().outage(Outage.UNAVAILABLE);
      assertThat(stripe.adapter.create(p).certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);

      stripe.sim.faults().outage(Outage.NONE);

      assertThat(stripe.adapter.create(p).certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
      assertThat(stripe.charged()).isOne();
    }
  }

  @Test
  void blackholeIsUnknownForCreatesAndReads() {
    try (StripeFixture stripe = new StripeFixture()) {
      CreatePayment p = payment("pm_card_visa");
      stripe.sim.faults().outage(Outage.BLACKHOLE);

      PspOutcome created = stripe.adapter.create(p);
      PspOutcome read = stripe.adapter.retrieve(byKey(p));

      assertThat(created.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
      assertThat(read.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
      boolean executed = stripe.sim.faults().blackholeExecutes(p.idempotencyKey());
      assertThat(stripe.charged()).isEqualTo(executed ? 1 : 0);

      stripe.sim.faults().outage(Outage.NONE);
      assertThat(stripe.adapter.create(p).certainty())
          .as("after the black hole the replay settles it either way")
          .isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
      assertThat(stripe.charged()).isOne();
    }
  }

  @Test
  void lieAnswersUnavailableButCharges() {
    try (StripeFixture stripe =
        new StripeFixture(options(new PspFaults(11).lieRate(1.0), StripeSimTiming.fast()))) {
      CreatePayment p = payment("pm_card_visa");

      PspOutcome out = stripe.adapter.create(p);

      assertThat(out.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
      assertThat(out.failoverEligible()).isTrue();
      assertThat(stripe.charged()).as("the ledger tells the truth").isOne();
      assertThat(stripe.adapter.retrieve(byKey(p)).certainty())
          .isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    }
  }

  @Test
  void closedServerIsUnknown() {
    StripeFixture stripe = new StripeFixture();
    StripeAdapter adapter = stripe.adapter;
    stripe.close();

    PspOutcome out = adapter.create(payment("pm_card_visa"));

    assertThat(out.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    assertThat(out.errorCode()).isIn("connect_failed", "connection_lost");
    assertThat(adapter.retrieve(byKey(payment("pm_card_visa"))).certainty())
        .isEqualTo(ResultCertainty.UNKNOWN);
  }

  @Test
  void proxyErrorPagesAndUnparseableBodiesAreUnknown() throws IOException {
    HttpServer proxy =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    proxy.createContext(
        "/",
        exchange -> {
          boolean gateway = exchange.getRequestURI().getPath().endsWith("/payment_intents");
          byte[] page = "<html><body>upstream error</body></html>".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(gateway ? 502 : 200, page.length);
          exchange.getResponseBody().write(page);
          exchange.close();
        });
    proxy.start();
    try {
      URI base = URI.create("http://127.0.0.1:" + proxy.getAddress().getPort());
      StripeAdapter adapter =
          new StripeAdapter(StripeConfig.of(base, StripeFixture.SECRET_KEY, "whsec_x"));

      PspOutcome badGateway = adapter.create(payment("pm_card_visa"));
      PspOutcome garbage =
          adapter.retrieve(new dev.clearway.core.channel.spi.AttemptRef(null, null, "pi_1"));

      assertThat(badGateway.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
      assertThat(badGateway.errorCode()).isEqualTo("unparseable_response");
      assertThat(badGateway.rawHash()).matches("[0-9a-f]{64}");
      assertThat(garbage.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
    } finally {
      proxy.stop(0);
    }
  }
}
