package dev.clearway.boot;

import dev.clearway.amqp.WakeupHandler;

/**
 * Another kind of row woken through the broker (refund orders, ...): its wake-ups carry {@code
 * kind}, and the broker's consumer hands their ids to {@code handler}.
 */
public record BrokerWakeupRoute(String kind, WakeupHandler handler) {}
