package dev.clearway.core.channel.spi;

import java.util.Objects;

/**
 * One create call of one attempt. {@code idempotencyKey} is the attempt's provider idempotency key,
 * fixed when the attempt was created; a transport replay sends the very same value object again.
 *
 * @param merchantReference the payment order (the flow's trade order number), searchable at PSPs
 *     that support search by merchant reference
 * @param paymentMethod an opaque method token such as {@code card} or {@code wallet}; never a card
 *     number
 * @param party the sub-merchant (partner mode) and the payer's id at the PSP, where needed
 */
public record CreatePayment(
    String idempotencyKey,
    String merchantReference,
    long amount,
    String currency,
    String paymentMethod,
    String description,
    PaymentParty party) {

  /** A direct payment (no sub-merchant, no payer id). */
  public CreatePayment(
      String idempotencyKey,
      String merchantReference,
      long amount,
      String currency,
      String paymentMethod,
      String description) {
    this(
        idempotencyKey,
        merchantReference,
        amount,
        currency,
        paymentMethod,
        description,
        PaymentParty.NONE);
  }

  public CreatePayment {
    party = party == null ? PaymentParty.NONE : party;
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(merchantReference, "merchantReference");
    Objects.requireNonNull(currency, "currency");
    Objects.requireNonNull(paymentMethod, "paymentMethod");
    if (amount <= 0) {
      throw new IllegalArgumentException("amount must be positive");
    }
  }
}
