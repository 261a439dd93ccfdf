package dev.clearway.business.http;

import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import java.util.Locale;
import java.util.Map;

/**
 * Reads one verified answer of the business system. Only a well-formed answer of the contract is
 * definite: a 5xx, a proxy's page, an unparseable or unexpected body are UNKNOWN (for a fact:
 * UNREADABLE), because the business may have executed the call. A 4xx is a definite refusal only
 * for {@link BusinessProtocol#INVALID_REQUEST}, after which the contract promises that nothing was
 * done.
 */
final class BusinessResponses {
  static final String UNPARSEABLE = "UNPARSEABLE_RESPONSE";
  static final String UNEXPECTED = "UNEXPECTED_RESPONSE";

  private BusinessResponses() {}

  /** A verified answer: its HTTP status, content type and raw body. */
  record Reply(int status, String contentType, byte[] body) {}

  static BizCallResult fulfilment(Reply reply, String tradeOrderNo) {
    Map<String, String> json = parse(reply);
    if (json == null) {
      return BizCallResult.UNKNOWN;
    }
    if (reply.status() == 200) {
      String status = json.get("status");
      String attributed = json.get("attributedOrderNo");
      if (BusinessProtocol.DONE.equals(status) && isPresent(attributed)) {
        return attributed.equals(tradeOrderNo)
            ? BizCallResult.ACCEPTED
            : BizCallResult.ALREADY_DONE;
      }
      if (BusinessProtocol.ACCEPTED.equals(status)) {
        return BizCallResult.ACCEPTED;
      }
      if (BusinessProtocol.REJECTED.equals(status)) {
        return BizCallResult.REJECTED;
      }
      return BizCallResult.UNKNOWN;
    }
    if (reply.status() == 400 && BusinessProtocol.INVALID_REQUEST.equals(json.get("error"))) {
      return BizCallResult.REJECTED;
    }
    return BizCallResult.UNKNOWN;
  }

  static BizFact fact(Reply reply) {
    if (reply.status() != 200) {
      return BizFact.unreadable("BIZ_HTTP_" + reply.status());
    }
    Map<String, String> json = parse(reply);
    if (json == null) {
      return BizFact.unreadable("BIZ_" + UNPARSEABLE);
    }
    String status = json.get("status");
    String attributed = json.get("attributedOrderNo");
    if (BusinessProtocol.DONE.equals(status) && isPresent(attributed)) {
      return BizFact.done(attributed);
    }
    if (BusinessProtocol.NOT_DONE.equals(status)) {
      return BizFact.notDone();
    }
    return BizFact.unreadable("BIZ_" + UNEXPECTED);
  }

  private static Map<String, String> parse(Reply reply) {
    String contentType = reply.contentType();
    if (contentType == null
        || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      return null;
    }
    return BusinessJson.readFlatObject(reply.body());
  }

  private static boolean isPresent(String s) {
    return s != null && !s.isEmpty();
  }
}
