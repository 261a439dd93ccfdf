package dev.clearway.psp.stripe;

import dev.clearway.core.channel.spi.ClientAction;
import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.ResultCertainty;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Maps Stripe answers about payment intents to {@link PspOutcome}s. Only what Stripe's protocol
 * proves becomes a final certainty: {@code succeeded} is a success; a 402 {@code card_error}, a
 * {@code canceled} intent and a 503 {@code channel_unavailable} are definite failures (only the
 * last one eligible for failover); anything unexplained is UNKNOWN.
 */
final class StripePaymentMapping {
  static final String CLOSED = "CLOSED";
  static final String NOT_FOUND_IN_SEARCH = "not_found_in_search";

  private StripePaymentMapping() {}

  /** The certainty of a payment intent object as Stripe reports it. */
  static PspOutcome intent(JsonNode intent, String requestId, String rawHash) {
    String status = StripeFields.text(intent, "status");
    String id = StripeFields.text(intent, "id");
    if (status == null) {
      return outcome(ResultCertainty.UNKNOWN, null, id, "unparseable_response", requestId, rawHash);
    }
    return switch (status) {
      case "succeeded" ->
          outcome(ResultCertainty.CONFIRMED_SUCCESS, status, id, null, requestId, rawHash)
              .withAmount(
                  intent.path("amount").canConvertToLong() ? intent.path("amount").asLong() : null);
      case "processing", "requires_capture" ->
          outcome(ResultCertainty.PENDING, status, id, null, requestId, rawHash);
      case "requires_action" ->
          PspOutcome.awaitingCustomer(id)
              .withProviderStatus(status)
              .withRequest(requestId, rawHash)
              .withClientAction(nextAction(intent));
      case "requires_payment_method" -> {
        String code = StripeFields.text(intent.path("last_payment_error"), "code");
        yield outcome(
            ResultCertainty.DEFINITE_FAILURE,
            status,
            id,
            code != null ? code : status,
            requestId,
            rawHash);
      }
      case "canceled" ->
          outcome(ResultCertainty.DEFINITE_FAILURE, status, id, CLOSED, requestId, rawHash);
      default ->
          outcome(ResultCertainty.UNKNOWN, status, id, "unexpected_status", requestId, rawHash);
    };
  }

  /**
   * The client secret and next action of an intent that waits for the customer (null without a
   * client secret): the customer's client confirms with the secret (Stripe.js {@code
   * handleNextAction}) or follows the redirect.
   */
  static ClientAction nextAction(JsonNode intent) {
    String secret = StripeFields.text(intent, "client_secret");
    if (secret == null) {
      return null;
    }
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("client_secret", secret);
    JsonNode next = intent.path("next_action");
    String type = StripeFields.text(next, "type");
    if (type != null) {
      fields.put("next_action", type);
      String url = StripeFields.text(next.path("redirect_to_url"), "url");
      if (url != null) {
        fields.put("redirect_url", url);
      }
    }
    return new ClientAction(ClientAction.Kind.STRIPE_NEXT_ACTION, fields);
  }

  /** The answer to a create or a replay of it. */
  static PspOutcome create(StripeReply reply) {
    if (!reply.answered()) {
      return PspOutcome.unknown(reply.transportError());
    }
    String requestId = reply.requestId();
    String rawHash = reply.rawHash();
    if (reply.json() == null) {
      return outcome(
          ResultCertainty.UNKNOWN, null, null, "unparseable_response", requestId, rawHash);
    }
    int status = reply.status();
    if (status == 200) {
      return intent(reply.json(), requestId, rawHash);
    }
    String type = reply.errorType();
    String code = reply.errorCode();
    if (status == 402 && "card_error".equals(type)) {
      JsonNode embedded = reply.json().path("error").path("payment_intent");
      String id = embedded.isObject() ? StripeFields.text(embedded, "id") : null;
      String providerStatus = embedded.isObject() ? StripeFields.text(embedded, "status") : null;
      return outcome(
          ResultCertainty.DEFINITE_FAILURE,
          providerStatus,
          id,
          code != null ? code : type,
          requestId,
          rawHash);
    }
    if (status == 400 && "idempotency_error".equals(type)) {
      return refusedUnexecuted("idempotency_error", requestId, rawHash);
    }
    if (status == 400 && "invalid_request_error".equals(type)) {
      return outcome(
          ResultCertainty.DEFINITE_FAILURE,
          null,
          null,
          code != null ? code : type,
          requestId,
          rawHash);
    }
    if (status == 401) {
      return refusedUnexecuted("auth", requestId, rawHash);
    }
    if (status == 503 && "channel_unavailable".equals(code)) {
      return PspOutcome.failedOnChannel(code).withRequest(requestId, rawHash);
    }
    if (status == 409) {
      return outcome(
          ResultCertainty.UNKNOWN,
          null,
          null,
          code != null ? code : "conflict",
          requestId,
          rawHash);
    }
    return outcome(ResultCertainty.UNKNOWN, null, null, "http_" + status, requestId, rawHash);
  }

  /** The answer to a retrieve: only a 200 says anything about the payment. */
  static PspOutcome retrieved(StripeReply reply) {
    if (!reply.answered()) {
      return PspOutcome.unknown(reply.transportError());
    }
    if (reply.status() == 200 && reply.json() != null) {
      return intent(reply.json(), reply.requestId(), reply.rawHash());
    }
    return unexplained(reply);
  }

  /**
   * The answer to a cancel: a canceled intent is closed; one that refused because it succeeded is a
   * success; anything else is UNKNOWN (the close did not happen).
   */
  static PspOutcome closed(StripeReply reply) {
    if (!reply.answered()) {
      return PspOutcome.unknown(reply.transportError());
    }
    JsonNode intent = null;
    if (reply.status() == 200 && reply.json() != null) {
      intent = reply.json();
    } else if (reply.status() == 400 && reply.json() != null) {
      JsonNode embedded = reply.json().path("error").path("payment_intent");
      intent = embedded.isObject() ? embedded : null;
    }
    if (intent == null) {
      return unexplained(reply);
    }
    PspOutcome outcome = intent(intent, reply.requestId(), reply.rawHash());
    boolean closed =
        outcome.certainty() == ResultCertainty.DEFINITE_FAILURE
            && CLOSED.equals(outcome.errorCode());
    if (closed || outcome.certainty() == ResultCertainty.CONFIRMED_SUCCESS) {
      return outcome;
    }
    return outcome(
        ResultCertainty.UNKNOWN,
        outcome.providerStatus(),
        outcome.providerPaymentId(),
        "not_closed",
        reply.requestId(),
        reply.rawHash());
  }

  /** An answer that proves nothing about the payment. */
  static PspOutcome unexplained(StripeReply reply) {
    String code = reply.errorCode();
    return outcome(
        ResultCertainty.UNKNOWN,
        null,
        null,
        code != null ? code : "http_" + reply.status(),
        reply.requestId(),
        reply.rawHash());
  }

  /** Stripe refused this request before executing it; not a channel failure. */
  private static PspOutcome refusedUnexecuted(String code, String requestId, String rawHash) {
    return PspOutcome.refusedUnexecuted(code).withRequest(requestId, rawHash);
  }

  private static PspOutcome outcome(
      ResultCertainty certainty,
      String providerStatus,
      String id,
      String errorCode,
      String requestId,
      String rawHash) {
    return PspOutcome.of(certainty)
        .withProviderStatus(providerStatus)
        .withProviderPaymentId(id)
        .withErrorCode(errorCode)
        .withRequest(requestId, rawHash);
  }
}
