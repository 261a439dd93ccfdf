package dev.clearway.lab.sim;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.clearway.sim.GrantEntry;
import dev.clearway.sim.LedgerEntry;
import dev.clearway.sim.SimBusiness;
import dev.clearway.sim.SimWallet;
import dev.clearway.sim.http.SimWalletServer;
import dev.clearway.sim.http.WalletCallMeter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * The simulated world's ledger and control over HTTP on loopback: what the wallet really charged
 * and refunded, what the business really granted, the wallet's calls per second, and a switch that
 * takes the wallet down for a while.
 *
 * <ul>
 *   <li>{@code GET /wallet-ledger[?settle=true]}: the wallet's executed charges and refunds
 *       (settling the due PROCESSING orders first when asked)
 *   <li>{@code GET /business-ledger}: the business's committed grants, each with its whole goal
 *   <li>{@code GET /wallet-calls}: wallet API requests per epoch second, last 600 seconds
 *   <li>{@code POST /wallet-outage?seconds=N}: every wallet API request answers 503 for N seconds
 *   <li>{@code GET /health}
 * </ul>
 */
final class SimControlServer implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final long MAX_OUTAGE_SECONDS = 86_400;

  private final HttpServer server;
  private final ExecutorService workers;
  private final SimWallet wallet;
  private final SimWalletServer walletServer;
  private final SimBusiness business;

  private SimControlServer(
      HttpServer server,
      ExecutorService workers,
      SimWallet wallet,
      SimWalletServer walletServer,
      SimBusiness business) {
    this.server = server;
    this.workers = workers;
    this.wallet = wallet;
    this.walletServer = walletServer;
    this.business = business;
  }

  /**
   * Binds to loopback and starts serving.
   *
   * @param port 0 for a free port
   * @throws UncheckedIOException if the port cannot be bound
   */
  static SimControlServer start(
      int port, SimWallet wallet, SimWalletServer walletServer, SimBusiness business) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind the sim ledger server to port " + port, e);
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService workers =
        Executors.newFixedThreadPool(
            4,
            r -> {
              Thread t = new Thread(r, "sim-ledger-http-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    SimControlServer control =
        new SimControlServer(server, workers, wallet, walletServer, business);
    server.createContext("/", control::handle);
    server.setExecutor(workers);
    server.start();
    return control;
  }

  /** {@code http://127.0.0.1:<port>}, without a trailing slash. */
  URI baseUrl() {
    InetAddress address = server.getAddress().getAddress();
    String host = address.getHostAddress();
    if (address instanceof Inet6Address) {
      host = "[" + host + "]";
    }
    return URI.create("http://" + host + ":" + server.getAddress().getPort());
  }

  private void handle(HttpExchange exchange) throws IOException {
    try {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      String query = exchange.getRequestURI().getRawQuery();
      Object body =
          switch (path) {
            case "/health" -> get(method, () -> Map.of("status", "UP"));
            case "/wallet-ledger" -> get(method, () -> walletLedger(query));
            case "/business-ledger" -> get(method, this::businessLedger);
            case "/wallet-calls" -> get(method, this::walletCalls);
            case "/wallet-outage" -> outage(method, query);
            default -> new Answer(404, Map.of("error", "NO_SUCH_ROUTE"));
          };
      Answer answer = body instanceof Answer a ? a : new Answer(200, body);
      byte[] bytes = JSON.writeValueAsBytes(answer.body());
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(answer.status(), bytes.length);
      exchange.getResponseBody().write(bytes);
    } catch (RuntimeException e) {
      // The connection closes without an answer; the caller sees the failure.
    } finally {
      exchange.close();
    }
  }

  /** A status other than 200, with its JSON body. */
  private record Answer(int status, Object body) {}

  private static Object get(String method, java.util.function.Supplier<Object> body) {
    return "GET".equals(method) ? body.get() : notAllowed("GET");
  }

  private static Answer notAllowed(String expected) {
    return new Answer(405, Map.of("error", "METHOD_NOT_ALLOWED", "message", "use " + expected));
  }

  private static Answer badRequest(String message) {
    return new Answer(400, Map.of("error", "INVALID_REQUEST", "message", message));
  }

  private List<Map<String, Object>> walletLedger(String query) {
    if ("true".equals(parameter(query, "settle"))) {
      wallet.settleAll();
    }
    return wallet.ledger().stream().map(SimControlServer::ledgerEntry).toList();
  }

  private static Map<String, Object> ledgerEntry(LedgerEntry e) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("kind", e.kind().name());
    row.put("orderNo", e.orderNo());
    row.put("tradeOrderNo", e.tradeOrderNo());
    row.put("amount", e.amount());
    row.put("at", e.at().toString());
    return row;
  }

  private List<Map<String, Object>> businessLedger() {
    return business.grants().stream().map(SimControlServer::grantEntry).toList();
  }

  private static Map<String, Object> grantEntry(GrantEntry g) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("merchant", g.goal().merchant());
    row.put("userId", g.goal().userId());
    row.put("scene", g.goal().scene());
    row.put("bizKey", g.goal().bizKey());
    row.put("attributedOrderNo", g.attributedOrderNo());
    row.put("at", g.at().toString());
    return row;
  }

  private Map<String, Object> walletCalls() {
    List<Map<String, Object>> seconds =
        walletServer.calls().perSecond().stream()
            .map(s -> Map.<String, Object>of("second", s.second(), "calls", s.calls()))
            .toList();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("windowSeconds", WalletCallMeter.WINDOW_SECONDS);
    body.put("perSecond", seconds);
    return body;
  }

  private Object outage(String method, String query) {
    if (!"POST".equals(method)) {
      return notAllowed("POST");
    }
    String raw = parameter(query, "seconds");
    long seconds;
    try {
      seconds = raw == null ? -1 : Long.parseLong(raw);
    } catch (NumberFormatException e) {
      seconds = -1;
    }
    if (seconds < 0 || seconds > MAX_OUTAGE_SECONDS) {
      return badRequest("seconds must be an integer within [0, " + MAX_OUTAGE_SECONDS + "]");
    }
    Instant until = walletServer.outage().beginFor(Duration.ofSeconds(seconds));
    return Map.of("outageUntil", until.toString());
  }

  /** The first value of a query parameter; null if absent. */
  private static String parameter(String query, String name) {
    if (query == null) {
      return null;
    }
    for (String pair : query.split("&")) {
      int eq = pair.indexOf('=');
      String key = eq < 0 ? pair : pair.substring(0, eq);
      if (key.equals(name)) {
        return eq < 0 ? "" : pair.substring(eq + 1);
      }
    }
    return null;
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }
}
