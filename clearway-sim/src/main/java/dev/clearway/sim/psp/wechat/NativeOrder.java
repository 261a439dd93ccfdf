package dev.clearway.sim.psp.wechat;

/**
 * The parameters of one create (native or JSAPI, direct or partner mode). Two creates with the same
 * {@code outTradeNo} must carry equal parameters, or the second is refused.
 *
 * @param attach the merchant's own data; the adapter puts the payment order's reference here
 * @param party the trade type, and in partner mode the sub-merchant the order is made for
 */
record NativeOrder(
    String appid,
    String description,
    String outTradeNo,
    String notifyUrl,
    Amount amount,
    String attach,
    Party party) {

  record Amount(long total, String currency) {}

  /**
   * The trade type ({@code NATIVE}, {@code JSAPI}), the sub-merchant and its app id in partner mode
   * (null for a direct order), and the payer's openid of a JSAPI order.
   */
  record Party(String tradeType, String subMchid, String subAppid, String openid) {
    static final Party NATIVE_DIRECT = new Party("NATIVE", null, null, null);

    boolean partner() {
      return subMchid != null;
    }
  }

  /** A direct native order. */
  NativeOrder(
      String appid,
      String description,
      String outTradeNo,
      String notifyUrl,
      Amount amount,
      String attach) {
    this(appid, description, outTradeNo, notifyUrl, amount, attach, Party.NATIVE_DIRECT);
  }

  boolean jsapi() {
    return "JSAPI".equals(party.tradeType());
  }
}
