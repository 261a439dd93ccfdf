package dev.clearway.sim.psp.wechat;

/** The parameters of one refund request. */
record RefundRequest(
    String outTradeNo, String outRefundNo, long refund, long total, String currency) {}
