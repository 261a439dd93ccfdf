package dev.clearway.sim.psp.wechat;

import java.time.Instant;

/** One native order held by {@link WechatOrderBook}; mutated only under the book's lock. */
final class SimOrder {
  final NativeOrder request;
  final String transactionId;
  final String codeUrl;
  String state = WechatProtocol.NOTPAY;
  Instant successTime;

  SimOrder(NativeOrder request, String transactionId, String codeUrl) {
    this.request = request;
    this.transactionId = transactionId;
    this.codeUrl = codeUrl;
  }

  boolean paid() {
    return WechatProtocol.SUCCESS.equals(state) || WechatProtocol.REFUND.equals(state);
  }
}
