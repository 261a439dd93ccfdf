package dev.clearway.core.channel.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The named answers of a PSP are the positional ones they replace, field by field. */
class PspOutcomeTest {

  @Test
  void aSuccessNamesThePaymentAndNothingElse() {
    assertThat(PspOutcome.succeeded("pi_1"))
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.CONFIRMED_SUCCESS, null, "pi_1", null, false, false, null, null));
  }

  @Test
  void pendingAndAwaitingTheCustomerDifferOnlyInTheCustomersAction() {
    assertThat(PspOutcome.pending("pi_1"))
        .isEqualTo(
            new PspOutcome(ResultCertainty.PENDING, null, "pi_1", null, false, false, null, null));
    assertThat(PspOutcome.awaitingCustomer("pi_1"))
        .isEqualTo(
            new PspOutcome(ResultCertainty.PENDING, null, "pi_1", null, false, true, null, null));
  }

  @Test
  void aDefiniteFailureAllowsAFailoverOnlyWhenTheChannelFailed() {
    assertThat(PspOutcome.failedDefinitely("card_declined"))
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.DEFINITE_FAILURE,
                null,
                null,
                "card_declined",
                false,
                false,
                null,
                null));
    assertThat(PspOutcome.failedOnChannel("channel_unavailable"))
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.DEFINITE_FAILURE,
                null,
                null,
                "channel_unavailable",
                true,
                false,
                null,
                null));
  }

  @Test
  void unknownAndRefusedCarryTheirReason() {
    assertThat(PspOutcome.unknown("timeout"))
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.UNKNOWN, null, null, "timeout", false, false, null, null));
    assertThat(PspOutcome.refusedUnexecuted("idempotency_error"))
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.NO_SIDE_EFFECT,
                null,
                null,
                "idempotency_error",
                false,
                false,
                null,
                null));
    assertThat(PspOutcome.noSideEffect("SIGN_ERROR").failoverEligible()).isTrue();
  }

  @Test
  void theWithMethodsChangeOneFieldEach() {
    PspOutcome full =
        PspOutcome.of(ResultCertainty.CONFIRMED_SUCCESS)
            .withProviderStatus("succeeded")
            .withProviderPaymentId("pi_1")
            .withErrorCode("E")
            .withRequest("req_1", "raw")
            .withFailoverEligible()
            .withCustomerActionPending()
            .withAmount(500L);
    assertThat(full)
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.CONFIRMED_SUCCESS,
                "succeeded",
                "pi_1",
                "E",
                true,
                true,
                "req_1",
                "raw",
                500L));
    assertThat(full.withError("X"))
        .isEqualTo(
            new PspOutcome(
                ResultCertainty.CONFIRMED_SUCCESS,
                "succeeded",
                "pi_1",
                "X",
                false,
                true,
                "req_1",
                "raw",
                500L));
    assertThat(full.withoutFailover().withoutCustomerAction().failoverEligible()).isFalse();
    assertThat(full.withoutCustomerAction().customerActionPending()).isFalse();
    assertThat(full.withErrorCode("Y").failoverEligible()).isTrue();
  }
}
