package dev.clearway.lab.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The load generator's client of the payment API: {@code POST /v1/payments} with a fresh
 * Idempotency-Key (sent again with the same key on 503 or 409, as the API asks) and {@code GET
 * /v1/payment-flows/{id}}, over HTTP/1.1 keep-alive connections. A flow is final when its answer
 * (2xx) carries no number of milliseconds to poll after.
 */
final class ApiClient {
  private static final Pattern FLOW_ID = Pattern.compile("\"flowId\":(\\d+)");
  private static final Pattern POLL_AGAIN = Pattern.compile("\"pollAfterMs\":\\d");
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int MAX_RETRIES = 200;
  private static final long RETRY_MILLIS = 50;

  /** One answer: its HTTP status, the flow id (or -1) and whether the flow is final. */
  record Answer(int status, long flowId, boolean terminal) {}

  private final URI base;
  private final String authorization;
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final AtomicLong next = new AtomicLong();
  private final java.util.Map<String, AtomicLong> answers =
      new java.util.concurrent.ConcurrentSkipListMap<>();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  ApiClient(URI base, String merchantKey) {
    this.base = base;
    this.authorization = "Bearer " + merchantKey;
  }

  /** Creates one payment of its own goal with a fresh Idempotency-Key. */
  Answer create(long deadlineEpochSecond) throws InterruptedException {
    long i = next.incrementAndGet();
    String bizKey = "load:" + run + ":" + i;
    String body =
        String.format(
            Locale.ROOT,
            "{\"userId\":%d,\"scene\":\"bench\",\"bizKey\":\"%s\",\"amount\":%d,"
                + "\"currency\":\"CNY\",\"bizDeadline\":\"%s\"}",
            1 + i % 10_000,
            bizKey,
            100 + i % 1000,
            java.time.Instant.ofEpochSecond(deadlineEpochSecond));
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve("/v1/payments"))
            .timeout(TIMEOUT)
            .header("Authorization", authorization)
            .header("Content-Type", "application/json")
            .header("Idempotency-Key", "idem-" + bizKey)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    Answer answer = send(request);
    for (int retry = 0; retry < MAX_RETRIES && retryable(answer.status()); retry++) {
      // 503: created but no worker free, or the node is busy; 409: the key's request still runs.
      // A client sends the same request with the same key again, as the API asks.
      Thread.sleep(RETRY_MILLIS);
      answer = send(request);
    }
    return answer;
  }

  private static boolean retryable(int status) {
    return status == 503 || status == 409 || status == 0;
  }

  /** Reads the flow. */
  Answer get(long flowId) throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(base.resolve("/v1/payment-flows/" + flowId))
            .timeout(TIMEOUT)
            .header("Authorization", authorization)
            .GET()
            .build();
    return send(request);
  }

  /** How many answers of each kind (method and status, or the transport error) were seen. */
  java.util.Map<String, AtomicLong> answers() {
    return answers;
  }

  private void count(String kind) {
    answers.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
  }

  private Answer send(HttpRequest request) throws InterruptedException {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      String text = response.body();
      Matcher m = FLOW_ID.matcher(text);
      long id = m.find() ? Long.parseLong(m.group(1)) : -1;
      int status = response.statusCode();
      count(request.method() + " " + status);
      boolean ok = status >= 200 && status < 300;
      return new Answer(status, id, ok && id > 0 && !POLL_AGAIN.matcher(text).find());
    } catch (IOException e) {
      count("io " + e.getClass().getSimpleName());
      return new Answer(0, -1, false);
    }
  }
}
