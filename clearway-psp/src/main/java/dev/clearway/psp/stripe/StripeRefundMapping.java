package dev.clearway.psp.stripe;

import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.RefundOutcome.RefundState;
import tools.jackson.databind.JsonNode;

/**
 * Maps Stripe answers about refunds to {@link RefundOutcome}s: {@code succeeded}, {@code pending}
 * (processing), {@code failed} or {@code canceled} (closed: Stripe needs a new refund); a 400 is a
 * refusal without effect, except {@code idempotency_error}, which needs a person (the number was
 * used with other parameters); anything unexplained is UNKNOWN.
 */
final class StripeRefundMapping {

  private StripeRefundMapping() {}

  static RefundOutcome refund(JsonNode refund, String requestId, String rawHash) {
    String status = StripeFields.text(refund, "status");
    String id = StripeFields.text(refund, "id");
    if (status == null) {
      return new RefundOutcome(
          RefundState.UNKNOWN, null, id, "unparseable_response", requestId, rawHash);
    }
    RefundState state =
        switch (status) {
          case "succeeded" -> RefundState.SUCCEEDED;
          case "pending", "requires_action" -> RefundState.PROCESSING;
          case "failed", "canceled" -> RefundState.CLOSED;
          default -> RefundState.UNKNOWN;
        };
    String code =
        switch (state) {
          case CLOSED -> StripeFields.text(refund, "failure_reason");
          case UNKNOWN -> "unexpected_status";
          case SUCCEEDED, PROCESSING, ABNORMAL, REJECTED, NOT_FOUND -> null;
        };
    return new RefundOutcome(state, status, id, code, requestId, rawHash);
  }

  static RefundOutcome reply(StripeReply reply) {
    if (!reply.answered()) {
      return RefundOutcome.unknown(reply.transportError());
    }
    String requestId = reply.requestId();
    String rawHash = reply.rawHash();
    if (reply.json() == null) {
      return new RefundOutcome(
          RefundState.UNKNOWN, null, null, "unparseable_response", requestId, rawHash);
    }
    int status = reply.status();
    String type = reply.errorType();
    String code = reply.errorCode();
    if (status == 200) {
      return refund(reply.json(), requestId, rawHash);
    }
    if (status == 400 && "idempotency_error".equals(type)) {
      return new RefundOutcome(
          RefundState.ABNORMAL, null, null, "idempotency_error", requestId, rawHash);
    }
    if (status == 400 || status == 402) {
      return new RefundOutcome(
          RefundState.REJECTED, null, null, code != null ? code : type, requestId, rawHash);
    }
    if (status == 401) {
      return new RefundOutcome(RefundState.REJECTED, null, null, "auth", requestId, rawHash);
    }
    if (status == 503 && "channel_unavailable".equals(code)) {
      return new RefundOutcome(RefundState.REJECTED, null, null, code, requestId, rawHash);
    }
    String unknownCode = status == 409 && code != null ? code : "http_" + status;
    return new RefundOutcome(RefundState.UNKNOWN, null, null, unknownCode, requestId, rawHash);
  }
}
