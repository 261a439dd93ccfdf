package dev.clearway.psp.stripe;

import static dev.clearway.psp.stripe.StripeFixture.byKey;
import static dev.clearway.psp.stripe.StripeFixture.options;
import static dev.clearway.psp.stripe.StripeFixture.payment;
import static org.assertj.core.api.Assertions.assertThat;

import dev.clearway.core.channel.spi.CreatePayment;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.stripe.StripeSimTiming;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Stripe's idempotency layer as the adapter meets it: replays, stored 500s, conflicts. */
class StripeIdempotencyContractTest {

  @Test
  void lostResponseThenReplayReturnsTheStoredSuccessAndChargesOnce() {
    try (StripeFixture stripe =
        new StripeFixture(
            options(new PspFaults(7).lostResponseRate(1.0), StripeSimTiming.fast()))) {
      CreatePayment p = payment("pm_card_visa");

      PspOutcome first = stripe.adapter.create(p);
      PspOutcome replay = stripe.adapter.create(p);

      assertThat(first.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
      assertThat(first.errorCode()).isEqualTo("connection_lost");
      assertThat(replay.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
      assertThat(stripe.charges()).hasSize(1);
      assertThat(stripe.charged()).isOne();
      assertThat(replay.providerPaymentId()).isEqualTo(stripe.charges().get(0).providerPaymentId());
      assertThat(stripe.sim.queries().total()).as("the replay is metered").isOne();
    }
  }

  @Test
  void lostResponseShorterThanTheClientTimeoutIsATimeout() {
    StripeSimTiming slowHold = StripeSimTiming.fast().withLostResponseHold(Duration.ofSeconds(2));
    try (StripeFixture stripe =
        new StripeFixture(options(new PspFaults(7).lostResponseRate(1.0), slowHold))) {
      StripeAdapter impatient =
          new StripeAdapter(
              stripe.config().withTimeouts(Duration.ofMillis(500), Duration.ofMillis(300)));

      PspOutcome out = impatient.create(payment("pm_card_visa"));

      assertThat(out.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
      assertThat(out.errorCode()).isEqualTo("timeout");
      assertThat(stripe.charged()).as("it executed before the answer was lost").isOne();
    }
  }

  @Test
  void stored500IsReplayedAndNeverExecuted() {
    try (StripeFixture stripe =
        new StripeFixture(options(new PspFaults(3).error500Rate(1.0), StripeSimTiming.fast()))) {
      CreatePayment p = payment("pm_card_visa");

      PspOutcome first = stripe.adapter.create(p);
      PspOutcome replay = stripe.adapter.create(p);

      assertThat(List.of(first, replay))
          .allSatisfy(
              o -> {
                assertThat(o.certainty()).isEqualTo(ResultCertainty.UNKNOWN);
                assertThat(o.errorCode()).isEqualTo("http_500");
              });
      assertThat(replay.rawHash()).isEqualTo(first.rawHash());
      assertThat(stripe.charges()).isEmpty();
      assertThat(stripe.adapter.retrieve(byKey(p)).errorCode()).isEqualTo("not_found_in_search");
      assertThat(stripe.sim.queries().total()).as("replay and search").isEqualTo(2);
    }
  }

  @Test
  void sameKeyWithOtherParametersIsAnIdempotencyError() {
    try (StripeFixture stripe = new StripeFixture()) {
      CreatePayment p = payment("pm_card_visa", 1_000);
      CreatePayment changed =
          new CreatePayment(
              p.idempotencyKey(),
              p.merchantReference(),
              2_000,
              p.currency(),
              p.paymentMethod(),
              p.description());

      PspOutcome first = stripe.adapter.create(p);
      PspOutcome conflicting = stripe.adapter.create(changed);

      assertThat(first.certainty()).isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
      assertThat(conflicting.certainty()).isEqualTo(ResultCertainty.NO_SIDE_EFFECT);
      assertThat(conflicting.errorCode()).isEqualTo("idempotency_error");
      assertThat(conflicting.failoverEligible()).isFalse();
      assertThat(stripe.charges()).singleElement().extracting("amount").isEqualTo(1_000L);
    }
  }

  @Test
  void concurrentSameKeyGetsOneConflictAndOneCharge() throws Exception {
    StripeSimTiming slow = StripeSimTiming.fast().withExecutionDelay(Duration.ofMillis(400));
    try (StripeFixture stripe = new StripeFixture(options(PspFaults.none(), slow))) {
      CreatePayment p = payment("pm_card_visa");
      CountDownLatch start = new CountDownLatch(1);
      CompletableFuture<PspOutcome> a =
          CompletableFuture.supplyAsync(() -> await(start, stripe, p));
      CompletableFuture<PspOutcome> b =
          CompletableFuture.supplyAsync(() -> await(start, stripe, p));
      start.countDown();

      List<PspOutcome> outcomes = List.of(a.get(), b.get());

      assertThat(outcomes)
          .extracting(PspOutcome::certainty)
          .containsExactlyInAnyOrder(ResultCertainty.CONFIRMED_SUCCESS, ResultCertainty.UNKNOWN);
      assertThat(outcomes)
          .filteredOn(o -> o.certainty() == ResultCertainty.UNKNOWN)
          .singleElement()
          .extracting(PspOutcome::errorCode)
          .isEqualTo("idempotency_key_in_use");
      assertThat(stripe.charges()).hasSize(1);
      assertThat(stripe.adapter.create(p).certainty())
          .as("once the first finished, the key replays")
          .isEqualTo(ResultCertainty.CONFIRMED_SUCCESS);
    }
  }

  @Test
  void declineIsStoredAndReplayed() {
    try (StripeFixture stripe = new StripeFixture()) {
      CreatePayment p = payment("pm_card_chargeDeclined");

      PspOutcome first = stripe.adapter.create(p);
      PspOutcome replay = stripe.adapter.create(p);

      assertThat(replay.certainty()).isEqualTo(ResultCertainty.DEFINITE_FAILURE);
      assertThat(replay.errorCode()).isEqualTo("card_declined");
      assertThat(replay.providerPaymentId()).isEqualTo(first.providerPaymentId());
      assertThat(stripe.charges()).hasSize(1);
    }
  }

  @Test
  void queryMeterCountsRetrievesSearchesAndReplays() {
    try (StripeFixture stripe = new StripeFixture()) {
      CreatePayment p = payment("pm_card_visa");
      String id = stripe.adapter.create(p).providerPaymentId();
      assertThat(stripe.sim.queries().total()).as("a first create is not a read").isZero();

      stripe.adapter.create(p);
      stripe.adapter.retrieve(byKey(p));
      stripe.adapter.retrieve(new dev.clearway.core.channel.spi.AttemptRef(null, null, id));

      assertThat(stripe.sim.queries().total()).isEqualTo(3);
      assertThat(stripe.sim.queries().peakPerSecond()).isBetween(1L, 3L);
    }
  }

  private static PspOutcome await(CountDownLatch start, StripeFixture stripe, CreatePayment p) {
    try {
      start.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return stripe.adapter.create(p);
  }
}
