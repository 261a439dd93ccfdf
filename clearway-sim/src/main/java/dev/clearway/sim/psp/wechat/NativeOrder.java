package dev.clearway.sim.psp.wechat;

/**
 * The parameters of one native create. Two creates with the same {@code outTradeNo} must carry
 * equal parameters, or the second is refused.
 *
 * @param attach the merchant's own data; the adapter puts the payment order's reference here
 */
record NativeOrder(
    String appid,
    String description,
    String outTradeNo,
    String notifyUrl,
    Amount amount,
    String attach) {

  record Amount(long total, String currency) {}
}
