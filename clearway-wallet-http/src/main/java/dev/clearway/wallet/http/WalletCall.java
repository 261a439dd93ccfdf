package dev.clearway.wallet.http;

/** The five calls of the wallet protocol; how an answer is read depends on which one it answers. */
enum WalletCall {
  PAY,
  QUERY_PAY,
  CLOSE,
  REFUND,
  QUERY_REFUND;

  boolean isQuery() {
    return this == QUERY_PAY || this == QUERY_REFUND;
  }

  /** Calls that carry a body the wallet validates before executing anything. */
  boolean sendsBody() {
    return this == PAY || this == REFUND;
  }
}
