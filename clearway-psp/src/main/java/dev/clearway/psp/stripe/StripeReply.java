package dev.clearway.psp.stripe;

import tools.jackson.databind.JsonNode;

/**
 * What one HTTP exchange with Stripe produced: an answer (status, parsed body, request id, hash of
 * the raw body) or a transport failure. Holds no credentials and no raw body.
 *
 * @param status the HTTP status, 0 for a transport failure
 * @param json the parsed body, null when the body was not JSON (or there was no answer)
 * @param transportError why there is no answer ({@code timeout}, {@code connect_failed}, ...), or
 *     null
 */
record StripeReply(
    int status, JsonNode json, String requestId, String rawHash, String transportError) {

  static StripeReply failed(String transportError) {
    return new StripeReply(0, null, null, null, transportError);
  }

  boolean answered() {
    return transportError == null;
  }

  /** {@code error.type} of an error body, or null. */
  String errorType() {
    return json == null ? null : StripeFields.text(json.path("error"), "type");
  }

  /** {@code error.code} of an error body, or null. */
  String errorCode() {
    return json == null ? null : StripeFields.text(json.path("error"), "code");
  }
}
