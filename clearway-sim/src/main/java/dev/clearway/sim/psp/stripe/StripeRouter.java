package dev.clearway.sim.psp.stripe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.clearway.sim.psp.PspFaults;
import dev.clearway.sim.psp.PspFaults.Outage;
import dev.clearway.sim.psp.QueryRateMeter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Routes the simulated Stripe API to one account's {@link StripeBook}, behind Stripe's
 * authentication and idempotency layers, and renders the {@link PspFaults} of the account in
 * Stripe's protocol: an outage refuses new creates with 503 {@code channel_unavailable} (a stored
 * answer is still replayed: the key already executed); a black hole holds every request and drops
 * the connection; a lost response executes, then drops; a 500 is stored for its key; a lie answers
 * 503 {@code channel_unavailable} and charges.
 */
final class StripeRouter implements HttpHandler {
  private static final int MAX_BODY_BYTES = 64 * 1024;
  private static final String INTENTS = "/v1/payment_intents";
  private static final String REFUNDS = "/v1/refunds";
  private static final String REPORT_RUNS = "/v1/reporting/report_runs";
  private static final String FILES = "/v1/files/";
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9_]{1,64}");
  private static final Pattern SEARCH =
      Pattern.compile("metadata\\['(attempt_key|merchant_reference)'\\]:'((?:[^'\\\\]|\\\\.)*)'");

  private enum Op {
    CREATE,
    CANCEL,
    REFUND
  }

  /** One execution's answer; {@code lose} drops it after the hold. */
  private record Execution(SimResponse response, boolean lose) {}

  private final StripeBook book;
  private final StripeReportRuns reports;
  private final IdempotencyKeys keys = new IdempotencyKeys();
  private final PspFaults faults;
  private final QueryRateMeter queries;
  private final byte[] expectedAuthorization;
  private final Duration hold;
  private final Duration executionDelay;
  private final AtomicLong requestIds = new AtomicLong();

  StripeRouter(
      StripeBook book, StripeReportRuns reports, StripeSimOptions options, QueryRateMeter queries) {
    this.book = book;
    this.reports = reports;
    this.faults = options.faults();
    this.queries = queries;
    this.expectedAuthorization = ("Bearer " + options.secretKey()).getBytes(StandardCharsets.UTF_8);
    this.hold = options.timing().lostResponseHold();
    this.executionDelay = options.timing().executionDelay();
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try {
      route(exchange);
    } catch (RuntimeException e) {
      send(exchange, SimResponse.refused(500, "api_error", null), false);
    } finally {
      exchange.close();
    }
  }

  private void route(HttpExchange exchange) throws IOException {
    if (!authorized(exchange)) {
      send(exchange, SimResponse.refused(401, "invalid_request_error", "api_key_invalid"), false);
      return;
    }
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getRawPath();
    if (path.equals(INTENTS) && method.equals("POST")) {
      post(exchange, Op.CREATE, null);
    } else if (path.equals(INTENTS + "/search") && method.equals("GET")) {
      read(exchange, () -> search(exchange.getRequestURI().getRawQuery()));
    } else if (path.startsWith(INTENTS + "/")
        && path.endsWith("/cancel")
        && method.equals("POST")) {
      String id = path.substring(INTENTS.length() + 1, path.length() - "/cancel".length());
      post(exchange, Op.CANCEL, id);
    } else if (path.startsWith(INTENTS + "/") && method.equals("GET")) {
      String id = path.substring(INTENTS.length() + 1);
      read(exchange, () -> validId(id) ? book.retrieve(id) : StripeBook.notFound());
    } else if (path.equals(REFUNDS) && method.equals("POST")) {
      post(exchange, Op.REFUND, null);
    } else if (path.startsWith(REFUNDS + "/") && method.equals("GET")) {
      String id = path.substring(REFUNDS.length() + 1);
      read(exchange, () -> validId(id) ? book.retrieveRefund(id) : StripeBook.notFound());
    } else if (path.startsWith(REPORT_RUNS) || path.startsWith(FILES)) {
      reporting(exchange, method, path);
    } else {
      send(exchange, StripeBook.notFound(), false);
    }
  }

  /** The reporting API and its files: no money moves, so neither keys nor faults apply. */
  private void reporting(HttpExchange exchange, String method, String path) throws IOException {
    String fileBase = "http://" + exchange.getRequestHeaders().getFirst("Host");
    if (path.equals(REPORT_RUNS) && method.equals("POST")) {
      byte[] raw = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES);
      FormBody form = FormBody.parse(new String(raw, StandardCharsets.UTF_8));
      send(exchange, reports.create(form, fileBase), false);
    } else if (path.startsWith(REPORT_RUNS + "/") && method.equals("GET")) {
      String id = path.substring(REPORT_RUNS.length() + 1);
      send(exchange, validId(id) ? reports.retrieve(id, fileBase) : StripeBook.notFound(), false);
    } else if (path.startsWith(FILES) && path.endsWith("/contents") && method.equals("GET")) {
      String id = path.substring(FILES.length(), path.length() - "/contents".length());
      byte[] csv = validId(id) ? reports.contents(id) : null;
      if (csv == null) {
        send(exchange, StripeBook.notFound(), false);
        return;
      }
      exchange.getResponseHeaders().set("Content-Type", "text/csv");
      exchange.sendResponseHeaders(200, csv.length);
      exchange.getResponseBody().write(csv);
    } else {
      send(exchange, StripeBook.notFound(), false);
    }
  }

  private interface Read {
    SimResponse answer();
  }

  /** A retrieve or search: always metered; dropped in a black hole, served in an outage. */
  private void read(HttpExchange exchange, Read read) throws IOException {
    queries.record();
    if (faults.outage() == Outage.BLACKHOLE) {
      holdAndDrop();
      return;
    }
    send(exchange, read.answer(), false);
  }

  private void post(HttpExchange exchange, Op op, String pathId) throws IOException {
    byte[] raw = exchange.getRequestBody().readNBytes(MAX_BODY_BYTES + 1);
    if (raw.length > MAX_BODY_BYTES) {
      send(exchange, SimResponse.refused(413, "invalid_request_error", "body_too_large"), false);
      return;
    }
    FormBody form = FormBody.parse(new String(raw, StandardCharsets.UTF_8));
    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
    String faultKey = faultKey(op, form, key, pathId);
    String fingerprint = op + " " + pathId + " " + form.fingerprint();
    if (faults.outage() == Outage.BLACKHOLE) {
      blackhole(op, form, key, faultKey, pathId, fingerprint);
      return;
    }
    if (key != null) {
      IdempotencyKeys.Claim claim = keys.claim(key, fingerprint);
      switch (claim.verdict()) {
        case REPLAY -> {
          queries.record();
          send(exchange, claim.stored(), true);
          return;
        }
        case IN_USE -> {
          queries.record();
          send(
              exchange,
              SimResponse.refused(409, "idempotency_error", "idempotency_key_in_use"),
              false);
          return;
        }
        case MISMATCH -> {
          queries.record();
          send(exchange, SimResponse.refused(400, "idempotency_error", null), false);
          return;
        }
        case EXECUTE -> {
          // New key: execute below.
        }
      }
    }
    Execution execution;
    try {
      execution = execute(op, form, key, faultKey, pathId);
    } catch (RuntimeException e) {
      if (key != null) {
        keys.release(key);
      }
      throw e;
    }
    if (key != null) {
      keys.finish(key, execution.response());
    }
    if (execution.lose()) {
      holdAndDrop();
    } else {
      send(exchange, execution.response(), false);
    }
  }

  private Execution execute(Op op, FormBody form, String key, String faultKey, String pathId) {
    return switch (op) {
      case CREATE -> create(form, faultKey);
      case CANCEL ->
          new Execution(validId(pathId) ? book.cancel(pathId) : StripeBook.notFound(), false);
      case REFUND -> new Execution(book.refund(form, key), faults.loseResponse("refund", faultKey));
    };
  }

  private Execution create(FormBody form, String faultKey) {
    if (faults.outage() == Outage.UNAVAILABLE) {
      return new Execution(SimResponse.unavailable(false), false);
    }
    SimResponse invalid = StripeBook.validateCreate(form);
    if (invalid != null) {
      return new Execution(invalid, false);
    }
    sleep(executionDelay);
    if (faults.error500(faultKey)) {
      return new Execution(SimResponse.failed(500, "api_error", null, null), false);
    }
    if (faults.lie(faultKey)) {
      book.create(form);
      return new Execution(SimResponse.unavailable(true), false);
    }
    return new Execution(book.create(form), faults.loseResponse("create", faultKey));
  }

  /** Holds, maybe executes (a new key only), then drops the connection unanswered. */
  private void blackhole(
      Op op, FormBody form, String key, String faultKey, String pathId, String fingerprint) {
    boolean executes =
        op == Op.CREATE
            ? faults.blackholeExecutes(faultKey)
            : faults.blackholeExecutes(op + ":" + faultKey);
    boolean valid = op != Op.CREATE || StripeBook.validateCreate(form) == null;
    if (executes && valid) {
      if (key == null) {
        execute(op, form, null, faultKey, pathId);
      } else if (keys.claim(key, fingerprint).verdict() == IdempotencyKeys.Verdict.EXECUTE) {
        keys.finish(key, execute(op, form, key, faultKey, pathId).response());
      }
    }
    holdAndDrop();
  }

  private SimResponse search(String rawQuery) {
    String query = rawQuery == null ? null : FormBody.parse(rawQuery).get("query");
    Matcher m = query == null ? null : SEARCH.matcher(query);
    if (m == null || !m.matches()) {
      return SimResponse.refused(400, "invalid_request_error", "parameter_invalid_string");
    }
    String value = m.group(2).replaceAll("\\\\(.)", "$1");
    return book.search(m.group(1), value);
  }

  private static String faultKey(Op op, FormBody form, String key, String pathId) {
    if (key != null) {
      return key;
    }
    String fallback =
        switch (op) {
          case CREATE -> form.get("metadata[attempt_key]");
          case CANCEL -> pathId;
          case REFUND -> form.get("payment_intent");
        };
    return fallback == null ? "" : fallback;
  }

  private boolean authorized(HttpExchange exchange) {
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    return header != null
        && MessageDigest.isEqual(header.getBytes(StandardCharsets.UTF_8), expectedAuthorization);
  }

  private static boolean validId(String id) {
    return id != null && ID.matcher(id).matches();
  }

  /** Keeps the client waiting, then the exchange closes without a status line. */
  private void holdAndDrop() {
    sleep(hold);
  }

  private static void sleep(Duration d) {
    if (d.isZero()) {
      return;
    }
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void send(HttpExchange exchange, SimResponse response, boolean replayed)
      throws IOException {
    byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange
        .getResponseHeaders()
        .set("Request-Id", "req_" + Long.toString(requestIds.incrementAndGet(), 36));
    if (replayed) {
      exchange.getResponseHeaders().set("Idempotent-Replayed", "true");
    }
    exchange.sendResponseHeaders(response.status(), bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
