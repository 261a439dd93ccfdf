package dev.clearway.service.api;

/**
 * The body of {@code POST /v1/payments}. Boxed and textual on purpose: a missing field is null, and
 * the deadline is parsed here so that a bad one gets its own error code.
 *
 * @param paymentMethod {@code wallet}, {@code card}, {@code wechat_native} or {@code wechat_jsapi};
 *     null: the service's default method
 * @param paymentToken an opaque PSP token of the method, such as {@code pm_card_visa}; never card
 *     data (optional)
 * @param payer the payer's id at the PSP, required by {@code wechat_jsapi} (the openid)
 */
public record CreatePaymentRequest(
    Long userId,
    String scene,
    String bizKey,
    Long amount,
    String currency,
    String bizDeadline,
    String paymentMethod,
    String paymentToken,
    String payer) {

  /** A request that leaves the method to the service's default. */
  public CreatePaymentRequest(
      Long userId, String scene, String bizKey, Long amount, String currency, String bizDeadline) {
    this(userId, scene, bizKey, amount, currency, bizDeadline, null, null, null);
  }
}
