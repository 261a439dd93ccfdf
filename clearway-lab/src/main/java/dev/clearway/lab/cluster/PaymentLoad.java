package dev.clearway.lab.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.json.JsonMapper;

/**
 * Clients paying through the nodes' API: payment {@code i} goes to node {@code i mod N}; when that
 * node does not answer (killed, restarting, overloaded, shutting down) the client sends the same
 * request with the same Idempotency-Key to the next node, as a client behind a load balancer would.
 */
final class PaymentLoad {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Duration GIVE_UP = Duration.ofSeconds(120);

  private final List<EngineNode> nodes;
  private final String merchantKey;
  private final long seed;
  private final int payments;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger accepted = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private final AtomicInteger retries = new AtomicInteger();
  private final AtomicInteger abandoned = new AtomicInteger();
  private final Map<String, Integer> refusals = new java.util.concurrent.ConcurrentSkipListMap<>();

  PaymentLoad(List<EngineNode> nodes, String merchantKey, long seed, int payments) {
    this.nodes = nodes;
    this.merchantKey = merchantKey;
    this.seed = seed;
    this.payments = payments;
  }

  /** Runs {@code concurrency} clients until every payment was answered or abandoned. */
  void run(int concurrency) throws InterruptedException {
    List<Thread> clients = new ArrayList<>();
    for (int c = 0; c < concurrency; c++) {
      Thread t = new Thread(this::client, "cluster-client-" + c);
      t.setDaemon(true);
      t.start();
      clients.add(t);
    }
    for (Thread t : clients) {
      t.join();
    }
  }

  int sent() {
    return Math.min(next.get(), payments);
  }

  int accepted() {
    return accepted.get();
  }

  int refused() {
    return refused.get();
  }

  int clientRetries() {
    return retries.get();
  }

  /** Refusals by status and error code, e.g. {@code 422 invalid_request}. */
  Map<String, Integer> refusals() {
    return Map.copyOf(refusals);
  }

  int abandoned() {
    return abandoned.get();
  }

  private void client() {
    int i;
    while ((i = next.getAndIncrement()) < payments) {
      pay(i);
    }
  }

  private void pay(int i) {
    String bizKey = "cluster:" + seed + ":" + i;
    String body = body(i, bizKey);
    Instant giveUp = Instant.now().plus(GIVE_UP);
    int attempt = 0;
    while (Instant.now().isBefore(giveUp)) {
      EngineNode node = nodes.get((i + attempt) % nodes.size());
      HttpResponse<String> response = post(node.base(), bizKey, body);
      int status = response == null ? 0 : response.statusCode();
      if (status >= 200 && status < 300) {
        accepted.incrementAndGet();
        return;
      }
      if (status >= 400 && status < 500 && status != 409 && status != 429) {
        refused.incrementAndGet();
        refusals.merge(status + " " + code(response.body()), 1, Integer::sum);
        return;
      }
      retries.incrementAndGet();
      attempt++;
      if (status == 409 || status == 429 || attempt % nodes.size() == 0) {
        // The key's request still runs (or its dead holder's lock has not expired yet): wait.
        sleep(250);
      }
    }
    abandoned.incrementAndGet();
  }

  private static String code(String body) {
    try {
      return JSON.readTree(body).path("code").asString("?");
    } catch (RuntimeException notJson) {
      return "?";
    }
  }

  /** The answer, or null when the node did not answer. */
  private HttpResponse<String> post(URI base, String bizKey, String body) {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve("/v1/payments"))
            .timeout(Duration.ofSeconds(5))
            .header("Authorization", "Bearer " + merchantKey)
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", "idem-" + bizKey)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** One payment: its own goal, an amount and a deadline 30 s away (time is compressed). */
  private static String body(int i, String bizKey) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("userId", 1 + i % 997);
    body.put("scene", "renewal");
    body.put("bizKey", bizKey);
    body.put("amount", 100 + (i * 37L) % 9_900);
    body.put("currency", "CNY");
    body.put("bizDeadline", Instant.now().plusSeconds(30).toString());
    return JSON.writeValueAsString(body);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
