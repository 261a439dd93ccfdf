package dev.clearway.sim.business;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.fact.BizCallResult;
import dev.clearway.core.flow.fact.BizFact;
import dev.clearway.sim.BusinessFault;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimulatedCrash;
import dev.clearway.sim.json.StrictJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Serves the business contract ({@link BusinessWire}) from a {@link SimBusiness} and tells its
 * answers honestly: an unsigned or wrongly signed request is refused with 401 before anything runs;
 * a fulfilment the business answered UNKNOWN is a 503 page (nothing done) or, when the grant
 * committed and the answer was lost, a connection dropped after a hold; an unreadable fact is a 503
 * page or a truncated body. The HTTP faults ({@link BusinessHttpFault}) come on top: forced for
 * every request by a test, or slow answers drawn from the fault plan.
 */
final class BusinessRouter implements HttpHandler {
  private static final Pattern ORDER_NO = Pattern.compile("[A-Za-z0-9_-]{1,64}");
  private static final Pattern NAME = Pattern.compile("[^\\p{Cntrl}]{1,128}");

  private final SimBusiness business;
  private final FaultPlan faults;
  private final SimBusinessServer.Options options;
  private final BusinessSignatures signatures;
  private final Clock clock;
  private final AtomicReference<BusinessHttpFault> forced;
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private final AtomicLong factReads = new AtomicLong();

  BusinessRouter(
      SimBusiness business,
      FaultPlan faults,
      SimBusinessServer.Options options,
      AtomicReference<BusinessHttpFault> forced) {
    this.business = business;
    this.faults = faults;
    this.options = options;
    this.clock = options.clock();
    this.signatures = new BusinessSignatures(options.secret(), options.clock());
    this.forced = forced;
  }

  /** A request refused before anything ran. */
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

  /** How an answer is delivered: as it is, or with an HTTP fault after the given hold. */
  private record Delivery(BusinessHttpFault fault, Duration hold) {
    static final Delivery AS_IS = new Delivery(BusinessHttpFault.NONE, Duration.ZERO);
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String requestId = exchange.getRequestHeaders().getFirst(BusinessWire.REQUEST_ID_HEADER);
    String id = requestId != null && ORDER_NO.matcher(requestId).matches() ? requestId : "";
    try {
      route(exchange, id);
    } catch (Refusal r) {
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("error", r.code);
      body.put("message", r.getMessage());
      send(exchange, id, r.status, StrictJson.write(body), Delivery.AS_IS);
    } catch (SimulatedCrash crash) {
      // The grant committed; the answer is lost with the worker that would have sent it.
      exchange.close();
    } catch (RuntimeException e) {
      sendPage(exchange, 500);
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange, String requestId) throws Refusal, IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getRawPath();
    if (path.equals(BusinessWire.LEDGER)) {
      requireMethod(method, "GET");
      send(exchange, requestId, 200, ledger(), Delivery.AS_IS);
      return;
    }
    if (!path.equals(BusinessWire.FULFILMENTS) && !path.equals(BusinessWire.FACT)) {
      throw new Refusal(404, BusinessWire.NO_SUCH_ROUTE, "no such route");
    }
    requireMethod(method, "POST");
    byte[] raw = exchange.getRequestBody().readNBytes(BusinessWire.MAX_BODY_BYTES + 1);
    String signature = exchange.getRequestHeaders().getFirst(BusinessWire.SIGNATURE_HEADER);
    if (raw.length > BusinessWire.MAX_BODY_BYTES
        || !signatures.verifies(signature, BusinessSignatures.request(method, path, raw))) {
      throw new Refusal(401, BusinessWire.UNAUTHORIZED, "missing or invalid signature");
    }
    if (requestId.isEmpty()) {
      throw new Refusal(400, BusinessWire.INVALID_REQUEST, "Clearway-Request-Id is required");
    }
    ObjectNode body = readBody(raw);
    GoalKey goal = goal(body);
    if (forced.get() == BusinessHttpFault.SERVER_ERROR) {
      sendPage(exchange, 503);
      return;
    }
    if (path.equals(BusinessWire.FULFILMENTS)) {
      fulfil(exchange, requestId, goal, orderNo(body), deadline(body));
    } else {
      fact(exchange, requestId, goal);
    }
  }

  private void fulfil(
      HttpExchange exchange, String requestId, GoalKey goal, String orderNo, Instant deadline)
      throws IOException {
    BusinessFault planned = business.fault(orderNo);
    BizCallResult result = business.fulfil(goal, orderNo, deadline);
    Delivery delivery = delivery(orderNo);
    if (result == BizCallResult.UNKNOWN) {
      if (planned == BusinessFault.RESPONSE_LOST) {
        send(exchange, requestId, 200, new byte[0], lost());
      } else {
        sendPage(exchange, 503);
      }
      return;
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    BizFact fact = business.currentFact(goal);
    if (fact.state() == BizFact.BizState.DONE) {
      answer.put("status", BusinessWire.DONE);
      answer.put("attributedOrderNo", fact.attributedOrderNo());
    } else if (result == BizCallResult.REJECTED) {
      answer.put("status", BusinessWire.REJECTED);
      answer.put("reason", BusinessWire.DEADLINE_PASSED);
    } else {
      answer.put("status", BusinessWire.ACCEPTED);
    }
    send(exchange, requestId, 200, StrictJson.write(answer), delivery);
  }

  private void fact(HttpExchange exchange, String requestId, GoalKey goal) throws IOException {
    BizFact fact = business.readFact(goal);
    if (fact.state() == BizFact.BizState.UNREADABLE) {
      long n = factReads.incrementAndGet();
      if (faults.unit("business.unreadable.form", String.valueOf(n), 0) < 0.5) {
        sendPage(exchange, 503);
      } else {
        Delivery garbled = new Delivery(BusinessHttpFault.MALFORMED_BODY, Duration.ZERO);
        send(exchange, requestId, 200, StrictJson.write(Map.of("status", "DONE")), garbled);
      }
      return;
    }
    Map<String, Object> answer = new LinkedHashMap<>();
    if (fact.state() == BizFact.BizState.DONE) {
      answer.put("status", BusinessWire.DONE);
      answer.put("attributedOrderNo", fact.attributedOrderNo());
    } else {
      answer.put("status", BusinessWire.NOT_DONE);
    }
    send(exchange, requestId, 200, StrictJson.write(answer), delivery(null));
  }

  /** The forced fault, else for a fulfilment a slow answer drawn from the plan. */
  private Delivery delivery(String orderNo) {
    BusinessHttpFault fault = forced.get();
    if (fault == BusinessHttpFault.LOST_RESPONSE) {
      return lost();
    }
    if (fault != BusinessHttpFault.NONE) {
      return new Delivery(
          fault, fault == BusinessHttpFault.SLOW ? options.slowHold() : Duration.ZERO);
    }
    if (orderNo == null) {
      return Delivery.AS_IS;
    }
    int call = calls.computeIfAbsent(orderNo, k -> new AtomicInteger()).incrementAndGet();
    if (faults.unit("business.slow", orderNo, call) < faults.rate() / 4) {
      Duration hold =
          faults.duration(
              "business.slow", orderNo + "#" + call, Duration.ofMillis(50), options.slowHold());
      return new Delivery(BusinessHttpFault.SLOW, hold);
    }
    return Delivery.AS_IS;
  }

  private Delivery lost() {
    return new Delivery(BusinessHttpFault.LOST_RESPONSE, options.lostResponseHold());
  }

  private byte[] ledger() {
    List<Map<String, Object>> grants = new ArrayList<>();
    for (GrantEntry g : business.grants()) {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("merchant", g.goal().merchant());
      row.put("userId", g.goal().userId());
      row.put("scene", g.goal().scene());
      row.put("bizKey", g.goal().bizKey());
      row.put("attributedOrderNo", g.attributedOrderNo());
      row.put("at", g.at().toString());
      grants.add(row);
    }
    return StrictJson.write(Map.of("grants", grants));
  }

  // ---- answers --------------------------------------------------------------------------------

  private void send(
      HttpExchange exchange, String requestId, int status, byte[] body, Delivery delivery)
      throws IOException {
    hold(delivery.hold());
    if (delivery.fault() == BusinessHttpFault.LOST_RESPONSE) {
      // Before sendResponseHeaders, closing the exchange closes the TCP connection.
      exchange.close();
      return;
    }
    byte[] bytes =
        delivery.fault() == BusinessHttpFault.MALFORMED_BODY
            ? java.util.Arrays.copyOf(body, Math.max(1, body.length / 2))
            : body;
    byte[] signed = BusinessSignatures.response(requestId, status, bytes);
    String signature =
        delivery.fault() == BusinessHttpFault.BAD_SIGNATURE
            ? BusinessSignatures.forged(signed, clock)
            : signatures.sign(signed);
    exchange.getResponseHeaders().set("Content-Type", BusinessWire.JSON);
    exchange.getResponseHeaders().set(BusinessWire.SIGNATURE_HEADER, signature);
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** A proxy's page: unsigned HTML, says nothing about what the business did. */
  private static void sendPage(HttpExchange exchange, int status) throws IOException {
    String title = status + (status == 503 ? " Service Temporarily Unavailable" : " Error");
    byte[] page =
        ("<html><head><title>" + title + "</title></head><body><h1>" + title + "</h1></body>")
            .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
    exchange.sendResponseHeaders(status, page.length);
    exchange.getResponseBody().write(page);
  }

  private static void hold(Duration hold) {
    if (hold.isZero()) {
      return;
    }
    try {
      Thread.sleep(hold.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- request validation: every Refusal happens before the business is called ----------------

  private static void requireMethod(String method, String expected) throws Refusal {
    if (!expected.equals(method)) {
      throw new Refusal(405, BusinessWire.METHOD_NOT_ALLOWED, "use " + expected);
    }
  }

  private static ObjectNode readBody(byte[] raw) throws Refusal {
    ObjectNode body;
    try {
      body = StrictJson.readObject(raw);
    } catch (StrictJson.MalformedJsonException e) {
      throw new Refusal(400, BusinessWire.INVALID_REQUEST, e.getMessage());
    }
    for (JsonNode value : body.values()) {
      if (value.isContainer()) {
        throw new Refusal(400, BusinessWire.INVALID_REQUEST, "not a flat JSON object");
      }
    }
    return body;
  }

  private static GoalKey goal(ObjectNode body) throws Refusal {
    OptionalLong userId = StrictJson.integer(body.get("userId"));
    if (userId.isEmpty() || userId.getAsLong() < 0) {
      throw new Refusal(400, BusinessWire.INVALID_REQUEST, "userId must be an integer >= 0");
    }
    return new GoalKey(
        name(body, "merchant"), userId.getAsLong(), name(body, "scene"), name(body, "bizKey"));
  }

  private static String name(ObjectNode body, String field) throws Refusal {
    String s = StrictJson.text(body.get(field));
    if (s == null || !NAME.matcher(s).matches()) {
      throw new Refusal(400, BusinessWire.INVALID_REQUEST, field + " must be 1-128 characters");
    }
    return s;
  }

  private static String orderNo(ObjectNode body) throws Refusal {
    String s = StrictJson.text(body.get("tradeOrderNo"));
    if (s == null || !ORDER_NO.matcher(s).matches()) {
      throw new Refusal(
          400, BusinessWire.INVALID_REQUEST, "tradeOrderNo must be 1-64 characters [A-Za-z0-9_-]");
    }
    return s;
  }

  private static Instant deadline(ObjectNode body) throws Refusal {
    String s = StrictJson.text(body.get("deadline"));
    try {
      return Instant.parse(String.valueOf(s));
    } catch (DateTimeParseException e) {
      throw new Refusal(400, BusinessWire.INVALID_REQUEST, "deadline must be an ISO-8601 instant");
    }
  }
}
