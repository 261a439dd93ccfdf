package dev.clearway.sim.psp.wechat;

/**
 * The WeChat Pay API v3 subset the simulator serves (JSON over HTTP, signed both ways).
 *
 * <pre>
 * POST /v3/pay/transactions/native                         create a native (QR code) order
 * GET  /v3/pay/transactions/out-trade-no/{no}?mchid=..     query by out_trade_no
 * GET  /v3/pay/transactions/id/{transaction_id}?mchid=..   query by transaction_id
 * POST /v3/pay/transactions/out-trade-no/{no}/close        close (204)
 * POST /v3/refund/domestic/refunds                         refund
 * GET  /v3/refund/domestic/refunds/{out_refund_no}         query a refund
 * GET  /v3/bill/tradebill?bill_date=YYYY-MM-DD             the trade bill's hash and download_url
 * GET  /v3/billdownload/file?bill_date=YYYY-MM-DD          the trade bill itself (text, signed call)
 * </pre>
 *
 * Errors are {@code {"code":..,"message":..}} with a 4xx or 5xx status.
 */
public final class WechatProtocol {
  public static final String NATIVE = "/v3/pay/transactions/native";
  public static final String BY_OUT_TRADE_NO = "/v3/pay/transactions/out-trade-no/";
  public static final String JSAPI = "/v3/pay/transactions/jsapi";
  public static final String PARTNER_NATIVE = "/v3/pay/partner/transactions/native";
  public static final String PARTNER_JSAPI = "/v3/pay/partner/transactions/jsapi";
  public static final String PARTNER_BY_OUT_TRADE_NO = "/v3/pay/partner/transactions/out-trade-no/";
  public static final String BY_TRANSACTION_ID = "/v3/pay/transactions/id/";
  public static final String CLOSE_SUFFIX = "/close";
  public static final String REFUNDS = "/v3/refund/domestic/refunds";
  public static final String TRADEBILL = "/v3/bill/tradebill";
  public static final String BILL_DOWNLOAD = "/v3/billdownload/file";

  public static final String AUTH_SCHEMA = "WECHATPAY2-SHA256-RSA2048";
  public static final String HEADER_TIMESTAMP = "Wechatpay-Timestamp";
  public static final String HEADER_NONCE = "Wechatpay-Nonce";
  public static final String HEADER_SIGNATURE = "Wechatpay-Signature";
  public static final String HEADER_SERIAL = "Wechatpay-Serial";
  public static final String HEADER_REQUEST_ID = "Request-ID";

  // trade_state
  public static final String SUCCESS = "SUCCESS";
  public static final String REFUND = "REFUND";
  public static final String NOTPAY = "NOTPAY";
  public static final String CLOSED = "CLOSED";
  public static final String USERPAYING = "USERPAYING";
  public static final String PAYERROR = "PAYERROR";

  // refund status
  public static final String REFUND_SUCCESS = "SUCCESS";
  public static final String REFUND_PROCESSING = "PROCESSING";
  public static final String REFUND_ABNORMAL = "ABNORMAL";
  public static final String REFUND_CLOSED = "CLOSED";

  // error codes
  public static final String SIGN_ERROR = "SIGN_ERROR";
  public static final String INVALID_REQUEST = "INVALID_REQUEST";
  public static final String PARAM_ERROR = "PARAM_ERROR";
  public static final String ORDER_CLOSED = "ORDER_CLOSED";
  public static final String ORDER_NOT_EXIST = "ORDER_NOT_EXIST";
  public static final String ORDERPAID = "ORDERPAID";
  public static final String NOT_ENOUGH = "NOT_ENOUGH";
  public static final String RESOURCE_NOT_EXISTS = "RESOURCE_NOT_EXISTS";
  public static final String CHANNEL_UNAVAILABLE = "CHANNEL_UNAVAILABLE";
  public static final String SYSTEM_ERROR = "SYSTEM_ERROR";
  public static final String NOT_FOUND = "NOT_FOUND";

  // notification event types
  public static final String TRANSACTION_SUCCESS = "TRANSACTION.SUCCESS";
  public static final String REFUND_SUCCESS_EVENT = "REFUND.SUCCESS";
  public static final String REFUND_ABNORMAL_EVENT = "REFUND.ABNORMAL";
  public static final String REFUND_CLOSED_EVENT = "REFUND.CLOSED";

  private WechatProtocol() {}

  /** out_trade_no and out_refund_no: 6 to 32 characters of {@code [A-Za-z0-9_*|-]}. */
  public static boolean isMerchantNo(String s) {
    if (s == null || s.length() < 6 || s.length() > 32) {
      return false;
    }
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-'
              || c == '|'
              || c == '*';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
