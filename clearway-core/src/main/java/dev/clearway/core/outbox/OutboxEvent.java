package dev.clearway.core.outbox;

import java.time.Instant;

/** One domain event as stored in the outbox. {@code eventId} is stable: consumers dedupe by it. */
public record OutboxEvent(
    long id,
    String eventId,
    String eventType,
    long aggregateId,
    String payload,
    Instant createdAt) {}
