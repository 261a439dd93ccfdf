package dev.clearway.sim.psp.stripe;

import dev.clearway.sim.json.StrictJson;
import dev.clearway.sim.psp.PspFaults;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivers the events of one simulated Stripe account to its webhook endpoint (or to any of
 * several, one per copy, the next on a transport error or 5xx), Stripe style: JSON {@code
 * {"id":"evt_...","type":...,"created":...,"data":{"object":{...}}}} signed in the {@code
 * Stripe-Signature} header ({@code t=...,v1=...}, HMAC-SHA256 over {@code "<t>.<payload>"}, signed
 * afresh for every attempt over the bytes it sends, by {@link StripeSigner}). No ordering
 * guarantee: each copy waits its own delay from {@link PspFaults#webhookDelayMillis}; {@link
 * PspFaults#duplicateWebhook} sends a second copy with the same event id. A non-2xx answer or a
 * transport error is retried with doubling backoff up to the configured attempts. Never blocks the
 * caller; the owner's scheduler stops delivery when closed.
 */
final class StripeWebhooks {
  static final String SIGNATURE_HEADER = "Stripe-Signature";
  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

  private final String secret;
  private final Clock clock;
  private final PspFaults faults;
  private final Duration firstBackoff;
  private final int maxAttempts;
  private final ScheduledExecutorService sender;
  private final HttpClient client;
  private final AtomicLong eventIds = new AtomicLong();
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong nextTarget = new AtomicLong();
  private volatile List<URI> targets = List.of();

  StripeWebhooks(StripeSimOptions options, ScheduledExecutorService sender) {
    this.secret = options.webhookSecret();
    this.clock = options.clock();
    this.faults = options.faults();
    this.firstBackoff = options.timing().webhookFirstBackoff();
    this.maxAttempts = options.timing().webhookAttempts();
    this.sender = sender;
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(ATTEMPT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  void target(URI target) {
    this.targets = target == null ? List.of() : List.of(target);
  }

  /**
   * Each copy goes to one of {@code targets}, taken in turn; a transport error or a 5xx sends the
   * retry to the next one. Empty: stop sending.
   */
  void targets(List<URI> targets) {
    this.targets = List.copyOf(targets);
  }

  /** Delivery attempts so far, retries included. */
  long attempts() {
    return attempts.get();
  }

  /** Deliveries answered 2xx. */
  long delivered() {
    return delivered.get();
  }

  /** Publishes one event about {@code object}; {@code faultKey} draws its delay and duplicate. */
  void publish(String type, Map<String, Object> object, String faultKey) {
    String id = "evt_" + Long.toString(eventIds.incrementAndGet(), 36);
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("id", id);
    event.put("object", "event");
    event.put("type", type);
    event.put("created", clock.instant().getEpochSecond());
    event.put("livemode", false);
    event.put("data", Map.of("object", object));
    byte[] payload = StrictJson.write(event);
    String key = type + ":" + faultKey;
    int copies = faults.duplicateWebhook(key) ? 2 : 1;
    for (int copy = 0; copy < copies; copy++) {
      long first = nextTarget.getAndIncrement();
      schedule(() -> attempt(payload, 1, first), faults.webhookDelayMillis(key, copy));
    }
  }

  private void attempt(byte[] payload, int n, long target) {
    List<URI> all = targets;
    if (all.isEmpty()) {
      return;
    }
    URI to = all.get((int) (target % all.size()));
    attempts.incrementAndGet();
    HttpRequest request =
        HttpRequest.newBuilder(to)
            .timeout(ATTEMPT_TIMEOUT)
            .header("Content-Type", "application/json; charset=utf-8")
            .header("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
            .header(
                SIGNATURE_HEADER,
                StripeSigner.header(payload, clock.instant().getEpochSecond(), secret))
            .POST(HttpRequest.BodyPublishers.ofByteArray(payload))
            .build();
    boolean ok;
    boolean targetDown;
    try {
      int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      ok = status >= 200 && status < 300;
      targetDown = status >= 500;
    } catch (IOException e) {
      ok = false;
      targetDown = true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (ok) {
      delivered.incrementAndGet();
    } else if (n < maxAttempts) {
      long factor = 1L << Math.min(n - 1, 10);
      long next = targetDown ? target + 1 : target;
      schedule(() -> attempt(payload, n + 1, next), firstBackoff.toMillis() * factor);
    }
  }

  private void schedule(Runnable task, long afterMillis) {
    try {
      sender.schedule(task, afterMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // The account is closing: undelivered events are dropped.
    }
  }
}
