package dev.clearway.sim.psp.wechat;

import dev.clearway.sim.json.StrictJson;
import dev.clearway.sim.psp.PspFaults;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Posts notifications the way WeChat Pay does: the resource encrypted with AEAD_AES_256_GCM under
 * the APIv3 key, the body signed by the platform key (a fresh timestamp and nonce per attempt), a
 * 200 or 204 answer ends the delivery, anything else (or no answer) is retried on the {@link
 * NotificationSchedule}. Duplicates and delays come from {@link PspFaults}. Sending is
 * asynchronous: it never blocks a request thread.
 */
final class WechatNotifier implements AutoCloseable {
  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(5);

  /** Where notifications go: each order's notify_url, an override, or nowhere. */
  private record Target(boolean stopped, URI override) {}

  private final WechatSimKeys keys;
  private final WechatSimOptions options;
  private final PspFaults faults;
  private final PlatformSigner signer;
  private final NotificationSchedule schedule;
  private final HttpClient client;
  private final ScheduledExecutorService timer;
  private final AtomicReference<Target> target = new AtomicReference<>(new Target(false, null));
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong delivered = new AtomicLong();

  WechatNotifier(WechatSimOptions options, PspFaults faults, PlatformSigner signer) {
    this.signer = signer;
    this.keys = options.keys();
    this.options = options;
    this.faults = faults;
    this.schedule = new NotificationSchedule(options.notifyScheduleScale());
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(ATTEMPT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "wechat-sim-notify");
              t.setDaemon(true);
              return t;
            });
  }

  /** A target overrides every notify_url from now on; null stops sending. */
  void target(URI override) {
    target.set(override == null ? new Target(true, null) : new Target(false, override));
  }

  long attempts() {
    return attempts.get();
  }

  long delivered() {
    return delivered.get();
  }

  /** Encrypts and schedules the event (twice when the duplicate fault hits it). */
  void emit(WechatEvent event) {
    byte[] body = envelope(event);
    int copies = faults.duplicateWebhook(event.faultKey()) ? 2 : 1;
    for (int copy = 0; copy < copies; copy++) {
      long delay = faults.webhookDelayMillis(event.faultKey(), copy);
      later(() -> attempt(event.notifyUrl(), body, 0), Duration.ofMillis(delay));
    }
  }

  /** The bytes every attempt sends and signs; the resource encrypted as written. */
  private byte[] envelope(WechatEvent event) {
    String nonce = WechatCrypto.nonce(12);
    byte[] plaintext = StrictJson.write(event.resource());
    Map<String, Object> resource = new LinkedHashMap<>();
    resource.put("algorithm", "AEAD_AES_256_GCM");
    resource.put(
        "ciphertext",
        WechatCrypto.encrypt(keys.apiV3Key(), nonce, event.originalType(), plaintext));
    resource.put("associated_data", event.originalType());
    resource.put("original_type", event.originalType());
    resource.put("nonce", nonce);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", UUID.randomUUID().toString());
    body.put("create_time", WechatResources.time(options.clock().instant()));
    body.put("resource_type", "encrypt-resource");
    body.put("event_type", event.eventType());
    body.put("summary", event.summary());
    body.put("resource", resource);
    return StrictJson.write(body);
  }

  private void attempt(String notifyUrl, byte[] body, int retriesDone) {
    Target t = target.get();
    if (t.stopped()) {
      return;
    }
    URI url;
    try {
      url = t.override() != null ? t.override() : URI.create(notifyUrl);
    } catch (IllegalArgumentException badUrl) {
      return;
    }
    attempts.incrementAndGet();
    String timestamp = Long.toString(options.clock().instant().getEpochSecond());
    String nonce = WechatCrypto.nonce(32);
    PlatformSigner.Current platform = signer.current();
    String signature =
        WechatCrypto.sign(platform.key(), WechatCrypto.message(body, timestamp, nonce));
    HttpRequest request =
        HttpRequest.newBuilder(url)
            .timeout(ATTEMPT_TIMEOUT)
            .header("Content-Type", "application/json")
            .header(WechatProtocol.HEADER_TIMESTAMP, timestamp)
            .header(WechatProtocol.HEADER_NONCE, nonce)
            .header(WechatProtocol.HEADER_SIGNATURE, signature)
            .header(WechatProtocol.HEADER_SERIAL, platform.serial())
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    client
        .sendAsync(request, HttpResponse.BodyHandlers.discarding())
        .whenComplete(
            (response, error) -> {
              int status = response == null ? 0 : response.statusCode();
              if (status == 200 || status == 204) {
                delivered.incrementAndGet();
                return;
              }
              Duration wait = schedule.retryAfter(retriesDone + 1);
              if (wait != null) {
                later(() -> attempt(notifyUrl, body, retriesDone + 1), wait);
              }
            });
  }

  private void later(Runnable task, Duration after) {
    try {
      timer.schedule(task, after.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // The server is closing: pending notifications are dropped.
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
