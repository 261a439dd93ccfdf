package dev.clearway.core.channel.spi;

/**
 * How to find one attempt at its PSP: by the idempotency key (which is the merchant reference of
 * the attempt at PSPs such as WeChat Pay, where {@code out_trade_no} is the idempotency domain), by
 * the payment order's merchant reference, or by the provider's own id once known (may be null);
 * {@code party} names the sub-merchant of a partner-mode attempt.
 */
public record AttemptRef(
    String idempotencyKey, String merchantReference, String providerPaymentId, PaymentParty party) {

  public AttemptRef {
    party = party == null ? PaymentParty.NONE : party;
  }

  /** An attempt of a direct payment (no sub-merchant). */
  public AttemptRef(String idempotencyKey, String merchantReference, String providerPaymentId) {
    this(idempotencyKey, merchantReference, providerPaymentId, PaymentParty.NONE);
  }
}
