package dev.clearway.sim.psp.wechat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.clearway.sim.json.StrictJson;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.PspInjections;
import dev.clearway.sim.psp.QueryRateMeter;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Serves the {@link WechatProtocol} routes: checks the merchant signature, renders the {@link
 * PspFaults} (outage, black hole, lost response, 500, lie), executes on the {@link WechatOrderBook}
 * and signs every answer with the platform key.
 */
final class WechatRouter implements HttpHandler {
  private static final int MAX_BODY = 64 * 1024;

  private enum Op {
    CREATE("create"),
    QUERY_BY_NO("query"),
    QUERY_BY_ID("query"),
    CLOSE("close"),
    REFUND("refund"),
    QUERY_REFUND("refund_query"),
    TRADEBILL("tradebill"),
    BILL_DOWNLOAD("billdownload");

    final String faultName;

    Op(String faultName) {
      this.faultName = faultName;
    }
  }

  private record Call(Op op, String key, Object params) {}

  /** An answer; {@code body} holds the bytes that are signed and sent. */
  private record Reply(int status, byte[] body, String contentType) {
    Reply(int status, byte[] body) {
      this(status, body, "application/json; charset=utf-8");
    }
  }

  private final WechatSimOptions options;
  private final WechatOrderBook book;
  private final PspFaults faults;
  private final QueryRateMeter meter;
  private final WechatAuthorization authorization;
  private final WechatRequests requests;
  private final PspInjections injections;
  private final AtomicLong requestIds = new AtomicLong();
  private final PlatformSigner signer;

  WechatRouter(
      WechatSimOptions options,
      WechatOrderBook book,
      PspFaults faults,
      QueryRateMeter meter,
      PspInjections injections,
      PlatformSigner signer) {
    this.options = options;
    this.signer = signer;
    this.injections = injections;
    this.book = book;
    this.faults = faults;
    this.meter = meter;
    this.authorization =
        new WechatAuthorization(options.keys().mchid(), options.keys().merchantPublicKey());
    this.requests = new WechatRequests(options.keys().mchid());
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      serve(exchange);
    } catch (WechatApiError e) {
      send(exchange, new Reply(e.status(), error(e.code(), e.getMessage())));
    } catch (RuntimeException e) {
      send(exchange, new Reply(500, error(WechatProtocol.SYSTEM_ERROR, "system error")));
    } finally {
      exchange.close();
    }
  }

  private void serve(HttpExchange exchange) throws WechatApiError, IOException {
    byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
    if (body.length > MAX_BODY) {
      throw new WechatApiError(400, WechatProtocol.PARAM_ERROR, "body too large");
    }
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getRawPath();
    String query = exchange.getRequestURI().getRawQuery();
    String url = query == null ? path : path + "?" + query;
    boolean authentic =
        authorization.authentic(
            exchange.getRequestHeaders().getFirst("Authorization"), method, url, body);
    if (faults.outage() == PspFaults.Outage.BLACKHOLE) {
      blackhole(exchange, authentic, method, path, query, body);
      return;
    }
    if (!authentic) {
      throw new WechatApiError(401, WechatProtocol.SIGN_ERROR, "signature verification failed");
    }
    Call call = route(method, path, query, body);
    if (call.op() == Op.TRADEBILL) {
      call =
          new Call(
              call.op(), call.key(), "http://" + exchange.getRequestHeaders().getFirst("Host"));
    }
    meter(call);
    if (call.op() == Op.CREATE && injections.lagged(((NativeOrder) call.params()).attach())) {
      // Executed, the customer pays, and the answer is lost.
      quietly(call, Payer.PAYS);
      holdAndDrop(exchange);
      return;
    }
    Reply injected = injected(call);
    if (injected != null) {
      send(exchange, injected);
      return;
    }
    if (call.op() == Op.CREATE) {
      createFaults(call);
    }
    Reply reply;
    try {
      reply = execute(call, null);
    } catch (WechatApiError e) {
      reply = new Reply(e.status(), error(e.code(), e.getMessage()));
    }
    if (faults.loseResponse(call.op().faultName, call.key())) {
      holdAndDrop(exchange);
      return;
    }
    send(exchange, reply);
  }

  /** The faults a create meets before it executes: outage, lie (executes, then refused), 500. */
  private void createFaults(Call call) throws WechatApiError {
    if (faults.outage() == PspFaults.Outage.UNAVAILABLE) {
      throw unavailable();
    }
    if (faults.lie(call.key())) {
      quietly(call, Payer.PAYS);
      throw unavailable();
    }
    if (faults.error500(call.key())) {
      throw new WechatApiError(500, WechatProtocol.SYSTEM_ERROR, "system error");
    }
  }

  /**
   * The answer an injected difference gives instead of the true one (see {@link PspInjections}), or
   * null: a lagging order is unknown to the queries and its close succeeds without closing it; a
   * refund reported refused executes all the same and is unknown to its query; a corrupted bill
   * download is cut short, so it no longer matches its announced hash.
   */
  private Reply injected(Call call) throws WechatApiError {
    return switch (call.op()) {
      case QUERY_BY_NO -> book.lagged(call.key()) ? notExist() : null;
      case QUERY_BY_ID -> book.laggedTransaction(call.key()) ? notExist() : null;
      case CLOSE -> book.lagged(call.key()) ? new Reply(204, new byte[0]) : null;
      case REFUND -> {
        if (!injections.liedAbout(call.key())) {
          yield null;
        }
        quietly(call, null);
        yield new Reply(400, error(WechatProtocol.NOT_ENOUGH, "refund exceeds what remains"));
      }
      case QUERY_REFUND ->
          injections.liedAbout(call.key())
              ? new Reply(404, error(WechatProtocol.RESOURCE_NOT_EXISTS, "refund does not exist"))
              : null;
      case BILL_DOWNLOAD -> {
        if (!injections.takeCorruption()) {
          yield null;
        }
        byte[] bill = bill(call.key());
        yield new Reply(
            200, java.util.Arrays.copyOf(bill, bill.length - 1), "text/plain; charset=utf-8");
      }
      case CREATE, TRADEBILL -> null;
    };
  }

  private static Reply notExist() {
    return new Reply(404, error(WechatProtocol.ORDER_NOT_EXIST, "order does not exist"));
  }

  private void blackhole(
      HttpExchange exchange,
      boolean authentic,
      String method,
      String path,
      String query,
      byte[] body) {
    try {
      Call call = route(method, path, query, body);
      meter(call);
      if (authentic && call.op() == Op.CREATE && faults.blackholeExecutes(call.key())) {
        quietly(call, null);
      }
    } catch (WechatApiError ignored) {
      // Dropped all the same.
    }
    holdAndDrop(exchange);
  }

  private Call route(String method, String path, String query, byte[] body) throws WechatApiError {
    if (path.equals(WechatProtocol.NATIVE)
        || path.equals(WechatProtocol.JSAPI)
        || path.equals(WechatProtocol.PARTNER_NATIVE)
        || path.equals(WechatProtocol.PARTNER_JSAPI)) {
      requireMethod(method, "POST");
      NativeOrder order = requests.order(path, body);
      return new Call(Op.CREATE, order.outTradeNo(), order);
    }
    if (path.startsWith(WechatProtocol.PARTNER_BY_OUT_TRADE_NO)) {
      return partnerByNo(method, path, query, body);
    }
    if (path.startsWith(WechatProtocol.BY_OUT_TRADE_NO)) {
      String rest = path.substring(WechatProtocol.BY_OUT_TRADE_NO.length());
      if (rest.endsWith(WechatProtocol.CLOSE_SUFFIX)) {
        requireMethod(method, "POST");
        requests.requireMchid(requests.object(body).get("mchid"));
        String no =
            requests.merchantNo(
                rest.substring(0, rest.length() - WechatProtocol.CLOSE_SUFFIX.length()));
        return new Call(Op.CLOSE, no, null);
      }
      requireMethod(method, "GET");
      requests.requireMchidQuery(query);
      return new Call(Op.QUERY_BY_NO, requests.merchantNo(rest), null);
    }
    if (path.startsWith(WechatProtocol.BY_TRANSACTION_ID)) {
      requireMethod(method, "GET");
      requests.requireMchidQuery(query);
      return new Call(
          Op.QUERY_BY_ID, path.substring(WechatProtocol.BY_TRANSACTION_ID.length()), null);
    }
    if (path.equals(WechatProtocol.REFUNDS)) {
      requireMethod(method, "POST");
      RefundRequest refund = requests.refund(body);
      return new Call(Op.REFUND, refund.outRefundNo(), refund);
    }
    if (path.startsWith(WechatProtocol.REFUNDS + "/")) {
      requireMethod(method, "GET");
      String no = requests.merchantNo(path.substring(WechatProtocol.REFUNDS.length() + 1));
      return new Call(Op.QUERY_REFUND, no, null);
    }
    if (path.equals(WechatProtocol.TRADEBILL) || path.equals(WechatProtocol.BILL_DOWNLOAD)) {
      requireMethod(method, "GET");
      String day = requests.billDate(query);
      return new Call(
          path.equals(WechatProtocol.TRADEBILL) ? Op.TRADEBILL : Op.BILL_DOWNLOAD, day, null);
    }
    throw new WechatApiError(404, WechatProtocol.NOT_FOUND, "no such route");
  }

  /**
   * Partner mode's query and close by out_trade_no: {@code sp_mchid} and {@code sub_mchid} in the
   * query string (query) or the body (close); only the sub-merchant's own orders are found.
   */
  private Call partnerByNo(String method, String path, String query, byte[] body)
      throws WechatApiError {
    String rest = path.substring(WechatProtocol.PARTNER_BY_OUT_TRADE_NO.length());
    if (rest.endsWith(WechatProtocol.CLOSE_SUFFIX)) {
      requireMethod(method, "POST");
      var json = requests.object(body);
      requests.requireMchid(json.get("sp_mchid"));
      String sub = requests.merchantId(json.get("sub_mchid"));
      String no =
          requests.merchantNo(
              rest.substring(0, rest.length() - WechatProtocol.CLOSE_SUFFIX.length()));
      return new Call(Op.CLOSE, no, sub);
    }
    requireMethod(method, "GET");
    String sub = requests.subMchidQuery(query);
    return new Call(Op.QUERY_BY_NO, requests.merchantNo(rest), sub);
  }

  /** The bill's hash and where to download it; the URL is served by this simulator. */
  private Reply tradeBill(String day, String baseUrl) {
    byte[] bill = bill(day);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("hash_type", "SHA1");
    body.put("hash_value", WechatTradeBill.sha1Hex(bill));
    body.put("download_url", baseUrl + WechatProtocol.BILL_DOWNLOAD + "?bill_date=" + day);
    return ok(body);
  }

  private byte[] bill(String day) {
    java.time.LocalDate date = java.time.LocalDate.parse(day);
    return WechatTradeBill.render(
        options.keys().mchid(),
        book.billEntries(
            WechatTradeBill.dayStart(date), WechatTradeBill.dayStart(date.plusDays(1))));
  }

  private Reply execute(Call call, Payer payer) throws WechatApiError {
    return switch (call.op()) {
      case CREATE -> ok(book.create((NativeOrder) call.params(), payer));
      case QUERY_BY_NO -> ok(book.queryByOutTradeNo(call.key(), (String) call.params()));
      case QUERY_BY_ID -> ok(book.queryByTransactionId(call.key()));
      case CLOSE -> {
        book.close(call.key(), (String) call.params());
        yield new Reply(204, new byte[0]);
      }
      case REFUND -> ok(book.refund((RefundRequest) call.params()));
      case QUERY_REFUND -> ok(book.queryRefund(call.key()));
      case TRADEBILL -> tradeBill(call.key(), (String) call.params());
      case BILL_DOWNLOAD -> new Reply(200, bill(call.key()), "text/plain; charset=utf-8");
    };
  }

  /** Executes for its side effect only (the answer is replaced by a fault). */
  private void quietly(Call call, Payer payer) {
    try {
      execute(call, payer);
    } catch (WechatApiError ignored) {
      // The caller never sees the answer.
    }
  }

  /** Queries, and creates of a number seen before (replays), count as reads. */
  private void meter(Call call) {
    switch (call.op()) {
      case QUERY_BY_NO, QUERY_BY_ID, QUERY_REFUND -> meter.record();
      case CREATE -> {
        if (book.known(call.key())) {
          meter.record();
        }
      }
      case CLOSE, REFUND, TRADEBILL, BILL_DOWNLOAD -> {
        // Writes and bills are not metered.
      }
    }
  }

  private static WechatApiError unavailable() {
    return new WechatApiError(503, WechatProtocol.CHANNEL_UNAVAILABLE, "channel unavailable");
  }

  private static void requireMethod(String method, String expected) throws WechatApiError {
    if (!expected.equals(method)) {
      throw new WechatApiError(405, WechatProtocol.NOT_FOUND, "use " + expected);
    }
  }

  private static Reply ok(Map<String, Object> body) {
    return new Reply(200, StrictJson.write(body));
  }

  private static byte[] error(String code, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("code", code);
    body.put("message", message);
    return StrictJson.write(body);
  }

  private void holdAndDrop(HttpExchange exchange) {
    try {
      Thread.sleep(options.lostResponseHold().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // Closing before sendResponseHeaders closes the connection without a status line.
    exchange.close();
  }

  private void send(HttpExchange exchange, Reply reply) throws IOException {
    byte[] bytes = reply.body();
    String timestamp = Long.toString(options.clock().instant().getEpochSecond());
    String nonce = WechatCrypto.nonce(32);
    PlatformSigner.Current platform = signer.current();
    String signature =
        WechatCrypto.sign(platform.key(), WechatCrypto.message(bytes, timestamp, nonce));
    var headers = exchange.getResponseHeaders();
    if (bytes.length > 0) {
      headers.set("Content-Type", reply.contentType());
    }
    headers.set(WechatProtocol.HEADER_REQUEST_ID, "req-" + requestIds.incrementAndGet());
    headers.set(WechatProtocol.HEADER_TIMESTAMP, timestamp);
    headers.set(WechatProtocol.HEADER_NONCE, nonce);
    headers.set(WechatProtocol.HEADER_SIGNATURE, signature);
    headers.set(WechatProtocol.HEADER_SERIAL, platform.serial());
    exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }
}
