package dev.clearway.sim.psp.wechat;

import java.util.Map;

/**
 * One notification to send, before encryption: the event type, the resource (a transaction or a
 * refund as JSON), where it goes, and the key its delivery faults are drawn from.
 */
record WechatEvent(
    String eventType,
    String summary,
    String originalType,
    Map<String, Object> resource,
    String notifyUrl,
    String faultKey) {}
