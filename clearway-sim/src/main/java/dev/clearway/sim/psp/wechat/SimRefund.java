package dev.clearway.sim.psp.wechat;

import java.time.Instant;

/** One refund held by {@link WechatOrderBook}; mutated only under the book's lock. */
final class SimRefund {
  final String refundId;
  final String outRefundNo;
  final SimOrder order;
  final long amount;
  final Instant createdAt;
  String status;
  Instant successTime;

  SimRefund(String refundId, String outRefundNo, SimOrder order, long amount, Instant createdAt) {
    this.refundId = refundId;
    this.outRefundNo = outRefundNo;
    this.order = order;
    this.amount = amount;
    this.createdAt = createdAt;
  }
}
