package dev.clearway.service.api;

/** A channel's event as sent: a hint that an order changed, never a state to copy. */
public record CallbackEvent(String id, String type, String tradeOrderNo, String refundOrderNo) {}
