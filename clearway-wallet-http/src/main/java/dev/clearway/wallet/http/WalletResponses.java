package dev.clearway.wallet.http;

import dev.clearway.core.flow.fact.WalletResult;
import java.util.Locale;
import java.util.Map;

/**
 * Reads one HTTP answer of the wallet into a {@link WalletResult}. Only a well-formed answer can be
 * definite: a 5xx, a proxy's page, an unparseable or unexpected body are UNKNOWN, because the
 * wallet may have executed the call. A 4xx is a definite failure only for the validation errors
 * after which the protocol promises that nothing was executed ({@link
 * WireProtocol#NOTHING_EXECUTED}), and only for pay and refund: a query or a close that the wallet
 * refuses says nothing about the order.
 */
final class WalletResponses {
  static final String UNPARSEABLE = "UNPARSEABLE_RESPONSE";
  static final String UNEXPECTED = "UNEXPECTED_RESPONSE";

  private WalletResponses() {}

  static WalletResult classify(WalletCall call, int status, String contentType, byte[] body) {
    if (status == 200) {
      Map<String, Object> json = parse(contentType, body);
      if (json == null || !(json.get("status") instanceof String wire)) {
        return WalletResult.unknown(UNPARSEABLE);
      }
      return ok(call, wire, json);
    }
    if (status >= 400 && status < 500) {
      Map<String, Object> json = parse(contentType, body);
      if (json != null
          && call.sendsBody()
          && json.get("error") instanceof String error
          && WireProtocol.NOTHING_EXECUTED.contains(error)) {
        return WalletResult.failed(error, null, false);
      }
    }
    return WalletResult.unknown("HTTP_" + status);
  }

  private static WalletResult ok(WalletCall call, String wire, Map<String, Object> json) {
    String errorCode = json.get("errorCode") instanceof String s ? s : null;
    String requestId = json.get("requestId") instanceof String s ? s : null;
    boolean retryable = Boolean.TRUE.equals(json.get("retryable"));
    if (call == WalletCall.CLOSE) {
      return switch (wire) {
        case WireProtocol.CLOSED -> WalletResult.success(requestId);
        case WireProtocol.SUCCEEDED -> WalletResult.failed("ALREADY_PAID", requestId, false);
        case WireProtocol.FAILED ->
            WalletResult.failed(orDefault(errorCode, "CLOSE_FAILED"), requestId, retryable);
        case WireProtocol.PROCESSING -> WalletResult.processing(requestId);
        // NOT_FOUND would mean the wallet did not record the close: a later pay is not rejected.
        default -> WalletResult.unknown(UNEXPECTED);
      };
    }
    return switch (wire) {
      case WireProtocol.SUCCEEDED -> WalletResult.success(requestId);
      case WireProtocol.FAILED ->
          WalletResult.failed(orDefault(errorCode, "FAILED"), requestId, retryable);
      case WireProtocol.PROCESSING -> WalletResult.processing(requestId);
      case WireProtocol.CLOSED ->
          WalletResult.failed(orDefault(errorCode, "ORDER_CLOSED"), requestId, false);
      case WireProtocol.NOT_FOUND ->
          call.isQuery() ? WalletResult.noRecord(requestId) : WalletResult.unknown(UNEXPECTED);
      default -> WalletResult.unknown(UNEXPECTED);
    };
  }

  private static Map<String, Object> parse(String contentType, byte[] body) {
    if (contentType == null
        || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      return null;
    }
    return WalletJson.readFlatObject(body);
  }

  private static String orDefault(String code, String fallback) {
    return code == null || code.isEmpty() ? fallback : code;
  }
}
