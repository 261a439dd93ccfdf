package dev.clearway.sim.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.clearway.core.flow.fact.WalletResult;
import dev.clearway.core.flow.port.WalletGateway.ChargeRequest;
import dev.clearway.core.flow.port.WalletGateway.RefundRequest;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.sim.WalletStatement;
import dev.clearway.sim.json.StrictJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Routes the wire protocol ({@link WireProtocol}) to a {@link SimWallet} and tells its answers
 * honestly: a definite answer is a 200 JSON body; an UNKNOWN "TIMEOUT" is a response that never
 * comes (held, then the connection is dropped); an UNKNOWN "HTTP_5xx" is a real 5xx with a proxy's
 * HTML page; a {@link SimulatedCrash} (the side effect happened, the worker died) is a dropped
 * connection, since in HTTP mode the worker on the other side of the wire is not ours to kill.
 */
final class WalletRouter implements HttpHandler {
  private static final Pattern HTTP_STATUS = Pattern.compile("HTTP_(5\\d\\d)");
  private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

  private final SimWallet wallet;
  private final Duration lostResponseHold;
  private final CallbackSender callbacks;
  private final WalletCallMeter meter;
  private final WalletOutage outage;
  private final String statementCurrency;

  /**
   * @param callbacks null when no callback URL is configured
   * @param meter counts every API request, outages included
   * @param outage while active, every API request is answered 503 without being executed
   * @param statementCurrency the currency of the statement's lines
   */
  WalletRouter(
      SimWallet wallet,
      Duration lostResponseHold,
      CallbackSender callbacks,
      WalletCallMeter meter,
      WalletOutage outage,
      String statementCurrency) {
    this.wallet = wallet;
    this.statementCurrency = statementCurrency;
    this.lostResponseHold = lostResponseHold;
    this.callbacks = callbacks;
    this.meter = meter;
    this.outage = outage;
  }

  private enum Op {
    PAY,
    QUERY_PAY,
    CLOSE,
    REFUND,
    QUERY_REFUND
  }

  /** A request the wallet refuses before executing anything. */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final String code;

    Refusal(int status, String code, String message) {
      super(message, null, false, false);
      this.status = status;
      this.code = code;
    }
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      String path = exchange.getRequestURI().getRawPath();
      if (path.startsWith(WireProtocol.CHARGES) || path.startsWith(WireProtocol.REFUNDS)) {
        meter.record();
        if (outage.active()) {
          send(exchange, 503, "text/html; charset=utf-8", errorPage(503), null);
          return;
        }
      }
      route(exchange);
    } catch (Refusal r) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("error", r.code);
      body.put("message", r.getMessage());
      body.put("executed", false);
      send(exchange, r.status, WireProtocol.JSON, StrictJson.write(body), null);
    } catch (SimulatedCrash crash) {
      drop(exchange);
    } catch (RuntimeException e) {
      send(exchange, 500, "text/html; charset=utf-8", errorPage(500), null);
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange) throws Refusal, IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getRawPath();
    if (path.equals(WireProtocol.CHARGES)) {
      requireMethod(method, "POST");
      ObjectNode body = readBody(exchange);
      ChargeRequest request =
          new ChargeRequest(
              orderNo(body, "tradeOrderNo"),
              nonNegativeLong(body, "userId"),
              positiveLong(body, "amount"),
              currency(body));
      answer(exchange, Op.PAY, request.tradeOrderNo(), () -> wallet.pay(request));
    } else if (path.startsWith(WireProtocol.CHARGES + "/")) {
      String rest = path.substring(WireProtocol.CHARGES.length() + 1);
      if (rest.endsWith(WireProtocol.CLOSE_SUFFIX)) {
        requireMethod(method, "POST");
        String no =
            pathOrderNo(rest.substring(0, rest.length() - WireProtocol.CLOSE_SUFFIX.length()));
        answer(exchange, Op.CLOSE, no, () -> wallet.closePayment(no));
      } else {
        requireMethod(method, "GET");
        String no = pathOrderNo(rest);
        answer(exchange, Op.QUERY_PAY, no, () -> wallet.queryPayment(no));
      }
    } else if (path.equals(WireProtocol.REFUNDS)) {
      requireMethod(method, "POST");
      ObjectNode body = readBody(exchange);
      RefundRequest request =
          new RefundRequest(
              orderNo(body, "refundOrderNo"),
              orderNo(body, "tradeOrderNo"),
              positiveLong(body, "amount"),
              currency(body));
      answer(exchange, Op.REFUND, request.tradeOrderNo(), () -> wallet.refund(request));
    } else if (path.startsWith(WireProtocol.REFUNDS + "/")) {
      requireMethod(method, "GET");
      String no = pathOrderNo(path.substring(WireProtocol.REFUNDS.length() + 1));
      answer(exchange, Op.QUERY_REFUND, no, () -> wallet.queryRefund(no));
    } else if (path.startsWith(WireProtocol.STATEMENTS + "/")) {
      requireMethod(method, "GET");
      statement(exchange, path.substring(WireProtocol.STATEMENTS.length() + 1));
    } else {
      throw new Refusal(404, WireProtocol.NO_SUCH_ROUTE, "no such route");
    }
  }

  private void answer(
      HttpExchange exchange, Op op, String tradeOrderNo, Supplier<WalletResult> call)
      throws IOException {
    WalletResult result = call.get();
    String status =
        switch (result.certainty()) {
          case SUCCESS -> op == Op.CLOSE ? WireProtocol.CLOSED : WireProtocol.SUCCEEDED;
          case PROCESSING -> WireProtocol.PROCESSING;
          case NO_RECORD -> WireProtocol.NOT_FOUND;
          case DEFINITE_FAILURE ->
              result.errorCode() != null && result.errorCode().endsWith("_CLOSED")
                  ? WireProtocol.CLOSED
                  : WireProtocol.FAILED;
          case UNKNOWN -> null;
        };
    if (status == null) {
      unknown(exchange, result.errorCode());
      return;
    }
    if (callbacks != null
        && (op == Op.PAY || op == Op.QUERY_PAY)
        && status.equals(WireProtocol.FAILED)
        && !"PARAMETER_MISMATCH".equals(result.errorCode())) {
      callbacks.emit(WireProtocol.CHARGE_FAILED, tradeOrderNo, null);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", status);
    body.put("errorCode", result.errorCode());
    body.put("requestId", result.requestId());
    body.put("retryable", result.retryable());
    send(exchange, 200, WireProtocol.JSON, StrictJson.write(body), result.requestId());
  }

  /** One UTC day's statement, with the SHA-256 of its bytes in {@code Content-Digest}. */
  private void statement(HttpExchange exchange, String day) throws Refusal, IOException {
    LocalDate date;
    try {
      date = LocalDate.parse(day);
    } catch (DateTimeParseException e) {
      throw new Refusal(400, WireProtocol.INVALID_REQUEST, "the day must be yyyy-MM-dd");
    }
    byte[] csv = WalletStatement.render(wallet.ledger(), date, statementCurrency);
    String digest;
    try {
      digest = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(csv));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    exchange
        .getResponseHeaders()
        .set(WireProtocol.CONTENT_DIGEST_HEADER, "sha-256=:" + digest + ":");
    send(exchange, 200, "text/csv; charset=utf-8", csv, null);
  }

  /** The wallet's UNKNOWN becomes the network symptom it stands for. */
  private void unknown(HttpExchange exchange, String code) throws IOException {
    Matcher m = HTTP_STATUS.matcher(code == null ? "" : code);
    if (m.matches()) {
      int status = Integer.parseInt(m.group(1));
      send(exchange, status, "text/html; charset=utf-8", errorPage(status), null);
      return;
    }
    // "TIMEOUT" and anything else: the answer never arrives.
    try {
      Thread.sleep(lostResponseHold.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    drop(exchange);
  }

  /** Closes the connection without a status line: the client sees EOF or a reset. */
  private static void drop(HttpExchange exchange) {
    // Before sendResponseHeaders, closing the exchange closes the TCP connection.
    exchange.close();
  }

  private static void send(
      HttpExchange exchange, int status, String contentType, byte[] bytes, String requestId)
      throws IOException {
    exchange.getResponseHeaders().set("Content-Type", contentType);
    if (requestId != null) {
      exchange.getResponseHeaders().set(WireProtocol.REQUEST_ID_HEADER, requestId);
    }
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static byte[] errorPage(int status) {
    String reason =
        switch (status) {
          case 500 -> "Internal Server Error";
          case 502 -> "Bad Gateway";
          case 503 -> "Service Temporarily Unavailable";
          case 504 -> "Gateway Time-out";
          default -> "Error";
        };
    String title = status + " " + reason;
    return ("<html>\r\n<head><title>"
            + title
            + "</title></head>\r\n<body>\r\n<center><h1>"
            + title
            + "</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  // ---- request validation: every Refusal happens before the wallet is called ----------------

  private static void requireMethod(String method, String expected) throws Refusal {
    if (!expected.equals(method)) {
      throw new Refusal(405, WireProtocol.METHOD_NOT_ALLOWED, "use " + expected);
    }
  }

  /**
   * The request body as a flat JSON object: a value that is an object or an array makes the body
   * malformed, like broken syntax or a duplicated field. Unknown fields are ignored.
   */
  private static ObjectNode readBody(HttpExchange exchange) throws IOException, Refusal {
    byte[] raw = exchange.getRequestBody().readNBytes(WireProtocol.MAX_BODY_BYTES + 1);
    if (raw.length > WireProtocol.MAX_BODY_BYTES) {
      throw new Refusal(413, WireProtocol.REQUEST_TOO_LARGE, "body over 64 KiB");
    }
    ObjectNode body;
    try {
      body = StrictJson.readObject(raw);
    } catch (StrictJson.MalformedJsonException e) {
      throw new Refusal(400, WireProtocol.MALFORMED_JSON, e.getMessage());
    }
    for (JsonNode value : body.values()) {
      if (value.isContainer()) {
        throw new Refusal(400, WireProtocol.MALFORMED_JSON, "not a flat JSON object");
      }
    }
    return body;
  }

  private static String pathOrderNo(String segment) throws Refusal {
    if (!WireProtocol.isOrderNo(segment)) {
      throw new Refusal(400, WireProtocol.INVALID_REQUEST, "bad order number in path");
    }
    return segment;
  }

  private static String orderNo(ObjectNode body, String field) throws Refusal {
    String s = StrictJson.text(body.get(field));
    if (!WireProtocol.isOrderNo(s)) {
      throw new Refusal(
          400, WireProtocol.INVALID_REQUEST, field + " must be 1-64 characters [A-Za-z0-9_-]");
    }
    return s;
  }

  /** An integral JSON number: {@code "100"}, {@code 100.0} and {@code 1e2} are refused. */
  private static long positiveLong(ObjectNode body, String field) throws Refusal {
    OptionalLong n = StrictJson.integer(body.get(field));
    if (n.isEmpty() || n.getAsLong() <= 0) {
      throw new Refusal(400, WireProtocol.INVALID_REQUEST, field + " must be a positive integer");
    }
    return n.getAsLong();
  }

  private static long nonNegativeLong(ObjectNode body, String field) throws Refusal {
    OptionalLong n = StrictJson.integer(body.get(field));
    if (n.isEmpty() || n.getAsLong() < 0) {
      throw new Refusal(400, WireProtocol.INVALID_REQUEST, field + " must be an integer >= 0");
    }
    return n.getAsLong();
  }

  private static String currency(ObjectNode body) throws Refusal {
    String s = StrictJson.text(body.get("currency"));
    if (s == null || !CURRENCY.matcher(s).matches()) {
      throw new Refusal(400, WireProtocol.INVALID_REQUEST, "currency must be ISO 4217 (3 letters)");
    }
    return s;
  }
}
