package dev.clearway.core.retention;

/**
 * What the retention job removes from the hot tables. Each kind is removed in batches of at most
 * {@link RetentionPolicy#batchSize()} rows, one short transaction per batch, oldest first.
 */
public enum RetentionKind {
  /**
   * Idempotency records, a configured time after completion: a later retry with the same key is a
   * new request, answered by the goal's live attempt.
   */
  IDEMPOTENCY,
  /**
   * Wallet callbacks in the inbox: a callback only wakes a flow, so a replay after the purge is
   * harmless.
   */
  CALLBACK_INBOX,
  /**
   * PSP webhook deliveries marked done: their work is idempotent, a very late redelivery is
   * processed again.
   */
  WEBHOOK_INBOX,
  /** Outbox events already published; unpublished events are never purged. */
  PUBLISHED_OUTBOX,
  /**
   * Terminal flows with their history, moved to the archive tables; only flows nothing refers to
   * any more (no refund order, no late-charge check, no open manual command or review, no open
   * attempt, recovery task or compensation of their order).
   */
  FLOW_ARCHIVE
}
