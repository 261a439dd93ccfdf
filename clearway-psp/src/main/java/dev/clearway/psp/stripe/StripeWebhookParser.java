package dev.clearway.psp.stripe;

import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.WebhookNotice;
import dev.clearway.core.channel.spi.WebhookRejected;
import dev.clearway.core.signature.WebhookSignature;
import java.time.Instant;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Verifies and decodes Stripe webhooks: the {@code stripe-signature} header ({@code t=...,v1=...},
 * HMAC-SHA256 over {@code "<t>.<raw body>"}) is checked, in constant time, before anything in the
 * body is read; a timestamp further than the tolerance from now (past or future) is refused, which
 * also refuses replays of old deliveries. Rejection messages never quote the body or the header.
 */
final class StripeWebhookParser {
  static final String HEADER = "stripe-signature";

  private final StripeConfig config;
  private final JsonMapper json;

  StripeWebhookParser(StripeConfig config, JsonMapper json) {
    this.config = config;
    this.json = json;
  }

  WebhookNotice parse(Map<String, String> headers, byte[] rawBody) throws WebhookRejected {
    String header = headers == null ? null : headers.get(HEADER);
    if (header == null || rawBody == null) {
      throw new WebhookRejected("malformed", "missing Stripe-Signature header or body");
    }
    Instant now = config.clock().instant();
    WebhookSignature.Result result =
        WebhookSignature.verify(
            header, rawBody, config.webhookSecret(), now, config.webhookTolerance());
    switch (result) {
      case VALID -> {
        // Authentic and fresh: decode below.
      }
      case BAD_SIGNATURE -> throw new WebhookRejected("bad_signature", "signature mismatch");
      case STALE_TIMESTAMP ->
          throw new WebhookRejected("stale_timestamp", "signed timestamp outside tolerance");
      case MALFORMED -> throw new WebhookRejected("malformed", "unparseable signature header");
    }
    JsonNode event;
    try {
      event = json.readTree(rawBody);
    } catch (JacksonException e) {
      throw new WebhookRejected("malformed", "body is not JSON");
    }
    String eventId = event == null ? null : StripeFields.text(event, "id");
    String type = event == null ? null : StripeFields.text(event, "type");
    JsonNode object = event == null ? null : event.path("data").path("object");
    if (eventId == null || type == null || object == null || !object.isObject()) {
      throw new WebhookRejected("malformed", "not a Stripe event");
    }
    Instant signedAt = Instant.ofEpochSecond(signedSeconds(header));
    String rawHash = StripeHttp.sha256(rawBody);
    if (type.startsWith("payment_intent.")) {
      PspOutcome payment = StripePaymentMapping.intent(object, null, rawHash);
      return new WebhookNotice(
          eventId,
          WebhookNotice.Kind.PAYMENT,
          StripeFields.text(object.path("metadata"), "attempt_key"),
          StripeFields.text(object, "id"),
          null,
          payment,
          null,
          signedAt);
    }
    if (type.startsWith("refund.")) {
      RefundOutcome refund = StripeRefundMapping.refund(object, null, rawHash);
      return new WebhookNotice(
          eventId,
          WebhookNotice.Kind.REFUND,
          null,
          StripeFields.text(object, "payment_intent"),
          StripeFields.text(object.path("metadata"), "refund_no"),
          null,
          refund,
          signedAt);
    }
    return new WebhookNotice(
        eventId, WebhookNotice.Kind.IGNORED, null, null, null, null, null, signedAt);
  }

  /** The {@code t} of a header that has already verified (so exactly one, all digits). */
  private static long signedSeconds(String header) {
    for (String element : header.split(",")) {
      String trimmed = element.trim();
      if (trimmed.startsWith("t=")) {
        return Long.parseLong(trimmed.substring(2).trim());
      }
    }
    throw new IllegalStateException("a verified header has a timestamp");
  }
}
