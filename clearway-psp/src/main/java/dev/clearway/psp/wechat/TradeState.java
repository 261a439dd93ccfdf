package dev.clearway.psp.wechat;

/** WeChat Pay's {@code trade_state} values of a native order. */
enum TradeState {
  SUCCESS,
  REFUND,
  NOTPAY,
  CLOSED,
  USERPAYING,
  PAYERROR;

  /** The state named {@code word}, or null for a word this adapter does not know. */
  static TradeState parse(String word) {
    if (word == null) {
      return null;
    }
    for (TradeState s : values()) {
      if (s.name().equals(word)) {
        return s;
      }
    }
    return null;
  }
}
