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
 * @param clientAction what the customer's client needs to complete a payment that waits for the
 *     customer (a QR code, signed JSAPI parameters, a client secret), or null
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
    Long amount,
    ClientAction clientAction) {

  public PspOutcome {
    Objects.requireNonNull(certainty, "certainty");
  }

  /** An answer with nothing for the customer's client. */
  public PspOutcome(
      ResultCertainty certainty,
      String providerStatus,
      String providerPaymentId,
      String errorCode,
      boolean failoverEligible,
      boolean customerActionPending,
      String requestId,
      String rawHash,
      Long amount) {
    this(
        certainty,
        providerStatus,
        providerPaymentId,
        errorCode,
        failoverEligible,
        customerActionPending,
        requestId,
        rawHash,
        amount,
        null);
  }

  /**
   * An answer that carries no amount (tests build answers this way; main code uses the factories).
   */
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

  /**
   * An answer of {@code certainty} that carries nothing else yet (see the {@code with} methods).
   */
  public static PspOutcome of(ResultCertainty certainty) {
    return new PspOutcome(certainty, null, null, null, false, false, null, null, null, null);
  }

  /** The PSP confirms the charge of {@code providerPaymentId}. */
  public static PspOutcome succeeded(String providerPaymentId) {
    return of(ResultCertainty.CONFIRMED_SUCCESS).withProviderPaymentId(providerPaymentId);
  }

  /** The payment exists and is not decided yet. */
  public static PspOutcome pending(String providerPaymentId) {
    return of(ResultCertainty.PENDING).withProviderPaymentId(providerPaymentId);
  }

  /** The payment waits for the customer (3-D Secure, scanning a QR code). */
  public static PspOutcome awaitingCustomer(String providerPaymentId) {
    return pending(providerPaymentId).withCustomerActionPending();
  }

  /** The payment definitely failed; no failover (a declined card, a closed order). */
  public static PspOutcome failedDefinitely(String errorCode) {
    return of(ResultCertainty.DEFINITE_FAILURE).withErrorCode(errorCode);
  }

  /**
   * The payment definitely failed for a reason of the channel (an outage the protocol proves), so a
   * new attempt on another channel is allowed.
   */
  public static PspOutcome failedOnChannel(String errorCode) {
    return failedDefinitely(errorCode).withFailoverEligible();
  }

  /** Nothing happened at the PSP, the result is not known: query by the same number. */
  public static PspOutcome unknown(String errorCode) {
    return of(ResultCertainty.UNKNOWN).withErrorCode(errorCode);
  }

  /** The PSP refused the request before executing it, for a reason of the channel. */
  public static PspOutcome noSideEffect(String errorCode) {
    return refusedUnexecuted(errorCode).withFailoverEligible();
  }

  /** The PSP (or this process) refused the request before executing it; not a channel failure. */
  public static PspOutcome refusedUnexecuted(String errorCode) {
    return of(ResultCertainty.NO_SIDE_EFFECT).withErrorCode(errorCode);
  }

  /** The same answer with the PSP's own status word. */
  public PspOutcome withProviderStatus(String status) {
    return new PspOutcome(
        certainty,
        status,
        providerPaymentId,
        errorCode,
        failoverEligible,
        customerActionPending,
        requestId,
        rawHash,
        amount,
        clientAction);
  }

  /** The same answer naming the PSP's payment object. */
  public PspOutcome withProviderPaymentId(String id) {
    return new PspOutcome(
        certainty,
        providerStatus,
        id,
        errorCode,
        failoverEligible,
        customerActionPending,
        requestId,
        rawHash,
        amount,
        clientAction);
  }

  /** The same answer with {@code code} as its error code, eligibility unchanged. */
  public PspOutcome withErrorCode(String code) {
    return new PspOutcome(
        certainty,
        providerStatus,
        providerPaymentId,
        code,
        failoverEligible,
        customerActionPending,
        requestId,
        rawHash,
        amount,
        clientAction);
  }

  /** The same answer with {@code code} as its error code, not failover-eligible. */
  public PspOutcome withError(String code) {
    return withErrorCode(code).withoutFailover();
  }

  /**
   * The same answer, from the PSP's request {@code requestId} whose raw body hashed to {@code
   * hash}.
   */
  public PspOutcome withRequest(String requestId, String hash) {
    return new PspOutcome(
        certainty,
        providerStatus,
        providerPaymentId,
        errorCode,
        failoverEligible,
        customerActionPending,
        requestId,
        hash,
        amount,
        clientAction);
  }

  /** The same answer, allowing a failover. */
  public PspOutcome withFailoverEligible() {
    return eligibility(true, customerActionPending);
  }

  /** The same answer, allowing no failover. */
  public PspOutcome withoutFailover() {
    return eligibility(false, customerActionPending);
  }

  /** The same answer, waiting for the customer. */
  public PspOutcome withCustomerActionPending() {
    return eligibility(failoverEligible, true);
  }

  /** The same answer, waiting for nobody. */
  public PspOutcome withoutCustomerAction() {
    return eligibility(failoverEligible, false);
  }

  private PspOutcome eligibility(boolean failover, boolean customerAction) {
    return new PspOutcome(
        certainty,
        providerStatus,
        providerPaymentId,
        errorCode,
        failover,
        customerAction,
        requestId,
        rawHash,
        amount,
        clientAction);
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
        charged,
        clientAction);
  }

  /** The same answer, with what the customer's client needs to complete the payment. */
  public PspOutcome withClientAction(ClientAction action) {
    return new PspOutcome(
        certainty,
        providerStatus,
        providerPaymentId,
        errorCode,
        failoverEligible,
        customerActionPending,
        requestId,
        rawHash,
        amount,
        action);
  }
}
