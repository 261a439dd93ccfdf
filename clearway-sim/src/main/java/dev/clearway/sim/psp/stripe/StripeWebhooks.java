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
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivers the events of one simulated Stripe account to its webhook endpoint, Stripe style: JSON
 * {@code {"id":"evt_...","type":...,"created":...,"data":{"object":{...}}}} signed in the {@code
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
  private volatile URI target;

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
    this.target = target;
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
      schedule(() -> attempt(payload, 1), faults.webhookDelayMillis(key, copy));
    }
  }

  private void attempt(byte[] payload, int n) {
    URI to = target;
    if (to == null) {
      return;
    }
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
    try {
      int status = client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      ok = status >= 200 && status < 300;
    } catch (IOException e) {
      ok = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (ok) {
      delivered.incrementAndGet();
    } else if (n < maxAttempts) {
      long factor = 1L << Math.min(n - 1, 10);
      schedule(() -> attempt(payload, n + 1), firstBackoff.toMillis() * factor);
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
