package dev.clearway.sim.psp;

/**
 * One payment as the simulated PSP's ledger holds it, for the invariant checker: the charge is
 * money taken from the customer; {@code refunded} is what was given back.
 *
 * @param idempotencyKey the attempt's key (Stripe Idempotency-Key, WeChat out_trade_no)
 * @param merchantReference the payment order it belongs to
 * @param status {@code CHARGED}, {@code PENDING}, {@code FAILED} or {@code CLOSED}
 */
public record PspCharge(
    String account,
    String idempotencyKey,
    String merchantReference,
    String providerPaymentId,
    long amount,
    String status,
    long refunded) {

  public boolean charged() {
    return "CHARGED".equals(status);
  }
}
