package dev.clearway.core.channel.domain;

/**
 * The payment order of one trade order number: the unit the flow engine pays, queries and closes.
 * Once CLOSED no new attempt is created for it.
 */
public record PaymentOrder(
    String tradeOrderNo, long amount, String currency, String paymentMethod, boolean closed) {}
