package dev.clearway.core.channel.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * An authentic, decrypted webhook reduced to what the core needs: which attempt it names (by the
 * attempt's idempotency key or the provider's id) and what it says. Produced only after the
 * signature and timestamp checks passed.
 *
 * @param eventId the PSP's event id, for deduplication
 * @param kind what the event is about
 */
public record WebhookNotice(
    String eventId,
    Kind kind,
    String idempotencyKey,
    String providerPaymentId,
    String refundNo,
    PspOutcome payment,
    RefundOutcome refund,
    Instant signedAt) {

  public WebhookNotice {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(kind, "kind");
  }

  public enum Kind {
    PAYMENT,
    REFUND,
    /** An event type the core does not act on; acknowledged and dropped. */
    IGNORED
  }
}
