package dev.clearway.core.channel.spi;

import java.util.Objects;

/**
 * One answer of a PSP about a payment (create, replay, retrieve, search, close, or a webhook),
 * reduced to what the core decides on. Carries no card data: {@code rawHash} is a SHA-256 of the
 * raw response body, for evidence.
 *
 * @param providerStatus the PSP's own status word (e.g. {@code succeeded}, {@code NOTPAY}), or null
 * @param failoverEligible only meaningful for {@link ResultCertainty#DEFINITE_FAILURE}: whether the
 *     error policy allows a new attempt on another channel (a channel outage yes, a declined card
 *     no)
 * @param customerActionPending the PSP waits for the customer (3DS, scanning a QR code)
 * @param amount the amount the PSP says it charged, in minor units, when its answer carries one
 *     (null otherwise): a success for another amount than the attempt's is not accepted
 */
public record PspOutcome(
    ResultCertainty certainty,
    String providerStatus,
    String providerPaymentId,
    String errorCode,
    boolean failoverEligible,
    boolean customerActionPending,
    String requestId,
    String rawHash,
    Long amount) {

  public PspOutcome {
    Objects.requireNonNull(certainty, "certainty");
  }

  /** An answer that carries no amount. */
  public PspOutcome(
      ResultCertainty certainty,
      String providerStatus,
      String providerPaymentId,
      String errorCode,
      boolean failoverEligible,
      boolean customerActionPending,
      String requestId,
      String rawHash) {
    this(
        certainty,
        providerStatus,
        providerPaymentId,
        errorCode,
        failoverEligible,
        customerActionPending,
        requestId,
        rawHash,
        null);
  }

  /** The same answer, carrying the charged amount the PSP reported. */
  public PspOutcome withAmount(Long charged) {
    return new PspOutcome(
        certainty,
        providerStatus,
        providerPaymentId,
        errorCode,
        failoverEligible,
        customerActionPending,
        requestId,
        rawHash,
        charged);
  }

  public static PspOutcome unknown(String errorCode) {
    return new PspOutcome(ResultCertainty.UNKNOWN, null, null, errorCode, false, false, null, null);
  }

  public static PspOutcome noSideEffect(String errorCode) {
    return new PspOutcome(
        ResultCertainty.NO_SIDE_EFFECT, null, null, errorCode, true, false, null, null);
  }
}
