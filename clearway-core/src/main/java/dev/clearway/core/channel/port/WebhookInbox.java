package dev.clearway.core.channel.port;

import java.time.Instant;

/** The webhook inbox: each PSP event is claimed before any work, so a replay does nothing. */
public interface WebhookInbox {

  /**
   * Claims a webhook event before any work: true the first time the account's event id is seen, or
   * when an earlier claim was never finished and was made before {@code staleBefore} (its process
   * died); false for a duplicate.
   */
  boolean claimDelivery(Delivery delivery, Instant now, Instant staleBefore);

  /** The claimed event's work is done: every later delivery is a duplicate. */
  void finishDelivery(Delivery delivery, Instant now);

  /** The claimed event's work failed: forget the claim, so that a redelivery does the work. */
  void releaseDelivery(Delivery delivery);

  /**
   * One webhook event of one channel account. Event ids are unique per PSP account only (two
   * accounts of one channel may both send {@code evt_1}), so the account is part of the key.
   */
  record Delivery(long channelAccountId, String channel, String eventId) {}
}
