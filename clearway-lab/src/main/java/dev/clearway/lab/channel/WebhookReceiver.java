package dev.clearway.lab.channel;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.clearway.core.channel.engine.ChannelWebhookIntake;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import tools.jackson.databind.json.JsonMapper;

/**
 * Receives PSP webhooks over real HTTP at {@code /webhooks/{channelAccountId}} and hands them to
 * {@link ChannelWebhookIntake}: 200 once processed, 400 with a stable code when the signature,
 * timestamp or body is refused (the PSP then retries or gives up). Used by the chaos run; the
 * Spring application has its own endpoint.
 */
public final class WebhookReceiver implements AutoCloseable {

  /** What the receiver answered for one channel account so far. */
  public record Tally(long accepted, long refused, long failed) {}

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpServer server;
  private final ExecutorService pool = Executors.newFixedThreadPool(8);
  private final Map<Long, AtomicLong[]> tallies = new ConcurrentHashMap<>();

  public WebhookReceiver(ChannelWebhookIntake intake) {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/webhooks/", exchange -> handle(exchange, intake, tallies));
    server.setExecutor(pool);
    server.start();
  }

  public URI target(long channelAccountId) {
    return URI.create(
        "http://127.0.0.1:" + server.getAddress().getPort() + "/webhooks/" + channelAccountId);
  }

  /**
   * Deliveries per channel account: accepted (200), refused (400), failed (500, or 503 when the
   * news could not be confirmed yet; the PSP delivers again).
   */
  public Map<Long, Tally> tallies() {
    Map<Long, Tally> out = new java.util.TreeMap<>();
    tallies.forEach((id, t) -> out.put(id, new Tally(t[0].get(), t[1].get(), t[2].get())));
    return out;
  }

  private static void handle(
      HttpExchange exchange, ChannelWebhookIntake intake, Map<Long, AtomicLong[]> tallies)
      throws IOException {
    long accountId = -1;
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      try {
        accountId = Long.parseLong(path.substring(path.lastIndexOf('/') + 1));
      } catch (NumberFormatException e) {
        reply(exchange, 404, "unknown_account");
        return;
      }
      byte[] body = exchange.getRequestBody().readNBytes(64 * 1024);
      Map<String, String> headers = new HashMap<>();
      for (Map.Entry<String, List<String>> h : exchange.getRequestHeaders().entrySet()) {
        if (!h.getValue().isEmpty()) {
          headers.put(h.getKey().toLowerCase(java.util.Locale.ROOT), h.getValue().get(0));
        }
      }
      ChannelWebhookIntake.Result result = intake.accept(accountId, headers, body);
      switch (result.disposition()) {
        case PROCESSED -> {
          tally(tallies, accountId, 0);
          reply(exchange, 200, result.code());
        }
        case REFUSED -> {
          tally(tallies, accountId, 1);
          reply(exchange, 400, result.code());
        }
        case REDELIVER -> {
          // Not conclusive yet: 503 so the PSP delivers again.
          tally(tallies, accountId, 2);
          reply(exchange, 503, result.code());
        }
      }
    } catch (RuntimeException e) {
      // Not stored: answer 500 so the PSP delivers again.
      tally(tallies, accountId, 2);
      exchange.sendResponseHeaders(500, -1);
    }
  }

  private static void tally(Map<Long, AtomicLong[]> tallies, long accountId, int which) {
    tallies
        .computeIfAbsent(
            accountId,
            id -> new AtomicLong[] {new AtomicLong(), new AtomicLong(), new AtomicLong()})[which]
        .incrementAndGet();
  }

  private static void reply(HttpExchange exchange, int status, String code) throws IOException {
    byte[] out = JSON.writeValueAsBytes(java.util.Collections.singletonMap("code", code));
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, out.length);
    exchange.getResponseBody().write(out);
  }

  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
