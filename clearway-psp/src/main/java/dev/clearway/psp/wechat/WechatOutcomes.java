package dev.clearway.psp.wechat;

import dev.clearway.core.channel.spi.PspOutcome;
import dev.clearway.core.channel.spi.RefundOutcome;
import dev.clearway.core.channel.spi.RefundOutcome.RefundState;
import dev.clearway.core.channel.spi.ResultCertainty;
import tools.jackson.databind.JsonNode;

/**
 * Maps WeChat Pay answers to certainties. Only an authentic answer whose meaning the protocol fixes
 * becomes anything but UNKNOWN: a 503 {@code CHANNEL_UNAVAILABLE} on create (not accepted), a 400
 * with a known code, a {@code trade_state}, a refund {@code status}, a 404 on a query.
 */
final class WechatOutcomes {
  static final String CLOSED = "CLOSED";

  private WechatOutcomes() {}

  static PspOutcome created(WechatReply r) {
    if (!r.authentic()) {
      return unknown(r, r.failure());
    }
    String code = r.code();
    if (r.status() == 200 && (r.text("code_url") != null || r.text("prepay_id") != null)) {
      return outcome(r, ResultCertainty.PENDING, TradeState.NOTPAY.name(), null, null)
          .customerActionPending();
    }
    if (r.status() == 503 && "CHANNEL_UNAVAILABLE".equals(code)) {
      return PspOutcome.failedOnChannel(code).withRequest(r.requestId(), r.rawHash());
    }
    if (r.status() == 400 && "INVALID_REQUEST".equals(code)) {
      return outcome(r, ResultCertainty.NO_SIDE_EFFECT, null, null, code).build();
    }
    if (r.status() == 400 && "ORDER_CLOSED".equals(code)) {
      return outcome(r, ResultCertainty.DEFINITE_FAILURE, TradeState.CLOSED.name(), null, CLOSED)
          .build();
    }
    if (r.status() == 401) {
      return PspOutcome.noSideEffect(code == null ? "SIGN_ERROR" : code)
          .withRequest(r.requestId(), r.rawHash());
    }
    return unknown(r, errorWord(r));
  }

  static PspOutcome queried(WechatReply r) {
    if (!r.authentic()) {
      return unknown(r, r.failure());
    }
    if (r.status() == 200 && r.json() != null) {
      return transaction(r.json(), r.requestId(), r.rawHash());
    }
    if (r.status() == 404 && "ORDER_NOT_EXIST".equals(r.code())) {
      return outcome(r, ResultCertainty.NO_SIDE_EFFECT, null, null, "ORDER_NOT_EXIST").build();
    }
    return unknown(r, errorWord(r));
  }

  static PspOutcome closed(WechatReply r) {
    if (!r.authentic()) {
      return unknown(r, r.failure());
    }
    if (r.status() == 204 || r.status() == 200) {
      return outcome(r, ResultCertainty.DEFINITE_FAILURE, TradeState.CLOSED.name(), null, CLOSED)
          .build();
    }
    if (r.status() == 400 && "ORDERPAID".equals(r.code())) {
      return outcome(r, ResultCertainty.CONFIRMED_SUCCESS, "ORDERPAID", null, null).build();
    }
    return unknown(r, errorWord(r));
  }

  /** A transaction object (query answer or decrypted notification) as an outcome. */
  static PspOutcome transaction(JsonNode tx, String requestId, String rawHash) {
    String word = text(tx, "trade_state");
    String id = text(tx, "transaction_id");
    TradeState state = TradeState.parse(word);
    if (state == null) {
      return PspOutcome.unknown("UNKNOWN_TRADE_STATE")
          .withProviderStatus(word)
          .withProviderPaymentId(id)
          .withRequest(requestId, rawHash);
    }
    return switch (state) {
      case SUCCESS, REFUND ->
          PspOutcome.succeeded(id)
              .withProviderStatus(word)
              .withRequest(requestId, rawHash)
              .withAmount(
                  tx.path("amount").path("total").canConvertToLong()
                      ? tx.path("amount").path("total").asLong()
                      : null);
      case NOTPAY, USERPAYING ->
          PspOutcome.awaitingCustomer(id).withProviderStatus(word).withRequest(requestId, rawHash);
      case PAYERROR ->
          PspOutcome.failedDefinitely(TradeState.PAYERROR.name())
              .withProviderStatus(word)
              .withProviderPaymentId(id)
              .withRequest(requestId, rawHash);
      case CLOSED ->
          PspOutcome.failedDefinitely(CLOSED)
              .withProviderStatus(word)
              .withProviderPaymentId(id)
              .withRequest(requestId, rawHash);
    };
  }

  static RefundOutcome refunded(WechatReply r, boolean query) {
    if (!r.authentic()) {
      return new RefundOutcome(
          RefundState.UNKNOWN, null, null, r.failure(), r.requestId(), r.rawHash());
    }
    if (r.status() == 200 && r.json() != null) {
      return refund(r.json(), "status", r.requestId(), r.rawHash());
    }
    String code = r.code();
    if (r.status() == 400 && "NOT_ENOUGH".equals(code)) {
      return new RefundOutcome(RefundState.REJECTED, null, null, code, r.requestId(), r.rawHash());
    }
    if (query && r.status() == 404) {
      return new RefundOutcome(RefundState.NOT_FOUND, null, null, code, r.requestId(), r.rawHash());
    }
    return new RefundOutcome(
        RefundState.UNKNOWN, null, null, errorWord(r), r.requestId(), r.rawHash());
  }

  /** A refund object; {@code statusField} is {@code status} (API) or {@code refund_status}. */
  static RefundOutcome refund(JsonNode refund, String statusField, String requestId, String hash) {
    String word = text(refund, statusField);
    String id = text(refund, "refund_id");
    RefundStatus status = RefundStatus.parse(word);
    if (status == null) {
      return new RefundOutcome(
          RefundState.UNKNOWN, word, id, "UNKNOWN_REFUND_STATUS", requestId, hash);
    }
    RefundState state = status.state();
    String errorCode =
        switch (status) {
          case SUCCESS, PROCESSING -> null;
          case ABNORMAL, CLOSED -> word;
        };
    return new RefundOutcome(state, word, id, errorCode, requestId, hash);
  }

  static String text(JsonNode node, String field) {
    JsonNode v = node == null ? null : node.path(field);
    return v != null && v.isString() ? v.stringValue() : null;
  }

  private static String errorWord(WechatReply r) {
    String code = r.code();
    return code != null ? code : "HTTP_" + r.status();
  }

  private static PspOutcome unknown(WechatReply r, String code) {
    return PspOutcome.unknown(code).withRequest(r.requestId(), r.rawHash());
  }

  private static Draft outcome(
      WechatReply r, ResultCertainty c, String status, String paymentId, String code) {
    return new Draft(c, status, paymentId, code, r.requestId(), r.rawHash());
  }

  /** A not-failover-eligible outcome under construction. */
  private record Draft(
      ResultCertainty certainty,
      String status,
      String paymentId,
      String code,
      String requestId,
      String rawHash) {
    PspOutcome build() {
      return PspOutcome.of(certainty)
          .withProviderStatus(status)
          .withProviderPaymentId(paymentId)
          .withErrorCode(code)
          .withRequest(requestId, rawHash);
    }

    PspOutcome customerActionPending() {
      return build().withCustomerActionPending();
    }
  }
}
