package dev.clearway.sim.http;

import java.util.Set;

/**
 * The simulated wallet's HTTP protocol, shared by {@link SimWalletServer} and its clients.
 *
 * <pre>
 * POST /v1/charges                      {tradeOrderNo, userId, amount, currency}
 * GET  /v1/charges/{tradeOrderNo}
 * POST /v1/charges/{tradeOrderNo}/close
 * POST /v1/refunds                      {refundOrderNo, tradeOrderNo, amount, currency}
 * GET  /v1/refunds/{refundOrderNo}
 * GET  /v1/statements/{yyyy-MM-dd}        the day's statement (text/csv, see WalletStatement)
 * </pre>
 *
 * <p>A statement answer carries {@code Content-Digest: sha-256=:<base64>:} (RFC 9530) over its
 * bytes, so the client can tell a damaged transfer from the file the wallet wrote.
 *
 * <p>An answer of the wallet is {@code 200} with {@code {status, errorCode, requestId, retryable}}
 * and the header {@code Request-Id}. A request the wallet refused before executing anything is a
 * {@code 4xx} with {@code {error, message, executed:false}}; only the error codes in {@link
 * #NOTHING_EXECUTED} carry that promise. Everything else a client may see (a 5xx HTML page from a
 * proxy, a connection closed without an answer, an answer that never comes) says nothing about
 * whether the wallet executed.
 */
public final class WireProtocol {
  public static final String CHARGES = "/v1/charges";
  public static final String REFUNDS = "/v1/refunds";
  public static final String CLOSE_SUFFIX = "/close";
  public static final String STATEMENTS = "/v1/statements";
  public static final String CONTENT_DIGEST_HEADER = "Content-Digest";

  public static final String REQUEST_ID_HEADER = "Request-Id";
  public static final String IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
  public static final String JSON = "application/json; charset=utf-8";

  // ---- 200 body: status ----
  public static final String SUCCEEDED = "SUCCEEDED";
  public static final String FAILED = "FAILED";
  public static final String PROCESSING = "PROCESSING";
  public static final String NOT_FOUND = "NOT_FOUND";
  public static final String CLOSED = "CLOSED";

  // ---- 4xx body: error (nothing executed) ----
  /** The body is not a flat JSON object. 400. */
  public static final String MALFORMED_JSON = "MALFORMED_JSON";

  /** A field is missing, of the wrong type or out of range. 400. */
  public static final String INVALID_REQUEST = "INVALID_REQUEST";

  /** The body is larger than {@link #MAX_BODY_BYTES}. 413. */
  public static final String REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE";

  /** The 4xx error codes after which the wallet guarantees that it executed nothing. */
  public static final Set<String> NOTHING_EXECUTED =
      Set.of(MALFORMED_JSON, INVALID_REQUEST, REQUEST_TOO_LARGE);

  /**
   * Unknown path (404). Not a validation error of the request: the client talks to the wrong place,
   * so it must not conclude anything about its order from it.
   */
  public static final String NO_SUCH_ROUTE = "NO_SUCH_ROUTE";

  /** Wrong method for a known path (405); like {@link #NO_SUCH_ROUTE}. */
  public static final String METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED";

  public static final int MAX_BODY_BYTES = 64 * 1024;

  // ---- callbacks ----
  public static final String CHARGE_SUCCEEDED = "charge.succeeded";
  public static final String CHARGE_FAILED = "charge.failed";
  public static final String REFUND_SUCCEEDED = "refund.succeeded";

  private WireProtocol() {}

  /** Order numbers on the wire: 1 to 64 characters of {@code [A-Za-z0-9_-]}. */
  public static boolean isOrderNo(String s) {
    if (s == null || s.isEmpty() || s.length() > 64) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-';
      if (!ok) {
        return false;
      }
    }
    return true;
  }
}
