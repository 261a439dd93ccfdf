package dev.clearway.business.http;

import java.nio.charset.StandardCharsets;

/**
 * The business system's HTTP contract (docs/business-contract.md), as the engine speaks it.
 *
 * <pre>
 * POST /v1/fulfilments   {merchant, userId, scene, bizKey, tradeOrderNo, deadline}
 * POST /v1/goals/fact    {merchant, userId, scene, bizKey}
 * </pre>
 *
 * <p>Every request carries {@code Clearway-Request-Id} and {@code Clearway-Signature: t=<unix
 * seconds>,v1=<hex HMAC-SHA256>} over {@code "<t>.<METHOD> <path>\n<body>"}; every answer carries
 * {@code Clearway-Signature} over {@code "<t>.<request id>\n<HTTP status>\n<body>"}, which binds
 * the answer to the request. An answer is definite only when it is signed, JSON and one of the
 * statuses below.
 */
public final class BusinessProtocol {
  public static final String FULFILMENTS = "/v1/fulfilments";
  public static final String FACT = "/v1/goals/fact";

  public static final String SIGNATURE_HEADER = "Clearway-Signature";
  public static final String REQUEST_ID_HEADER = "Clearway-Request-Id";
  public static final String JSON = "application/json; charset=utf-8";

  // ---- 200 body: status ----
  /** The goal is granted; {@code attributedOrderNo} names the order it is attributed to. */
  public static final String DONE = "DONE";

  /** Accepted, not granted yet (the fulfilment will commit later, or never after the deadline). */
  public static final String ACCEPTED = "ACCEPTED";

  /** Refused, nothing done: the deadline has passed ({@code reason}). */
  public static final String REJECTED = "REJECTED";

  /** The goal is not granted (fact query only). */
  public static final String NOT_DONE = "NOT_DONE";

  // ---- 4xx body: error ----
  /** A field is missing or malformed; nothing was done. 400. */
  public static final String INVALID_REQUEST = "INVALID_REQUEST";

  private BusinessProtocol() {}

  /** The bytes a request's signature covers (after {@code "<t>."}). */
  public static byte[] requestSigned(String method, String path, byte[] body) {
    return concat((method + " " + path + "\n").getBytes(StandardCharsets.UTF_8), body);
  }

  /** The bytes an answer's signature covers (after {@code "<t>."}). */
  public static byte[] responseSigned(String requestId, int status, byte[] body) {
    return concat((requestId + "\n" + status + "\n").getBytes(StandardCharsets.UTF_8), body);
  }

  private static byte[] concat(byte[] head, byte[] body) {
    byte[] out = new byte[head.length + body.length];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(body, 0, out, head.length, body.length);
    return out;
  }
}
