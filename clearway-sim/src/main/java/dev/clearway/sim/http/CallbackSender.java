package dev.clearway.sim.http;

import dev.clearway.core.runtime.BoundedHttp;
import dev.clearway.core.signature.WebhookSignature;
import dev.clearway.sim.FaultPlan;
import dev.clearway.sim.json.StrictJson;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Posts signed events to the configured callback URLs (one target per attempt, see {@link
 * SimWalletServer.Callbacks}) from one background thread: each final state once (by event type and
 * order number), with the deterministic {@link CallbackFault faults} of the wallet's plan, and
 * retries on a non-2xx answer or a transport error with exponential backoff, up to a bounded number
 * of attempts. Every attempt is signed afresh with its own timestamp.
 */
final class CallbackSender implements AutoCloseable {
  private static final Duration DUPLICATE_GAP_MIN = Duration.ofMillis(5);
  private static final Duration DUPLICATE_GAP_MAX = Duration.ofMillis(150);
  private static final Duration DELAY_MIN = Duration.ofMillis(200);
  private static final Duration DELAY_MAX = Duration.ofMillis(2_000);
  private static final Duration OUT_OF_ORDER_GAP = Duration.ofMillis(20);
  private static final Duration OUT_OF_ORDER_MAX_HOLD = Duration.ofMillis(1_000);

  private final SimWalletServer.Callbacks config;
  private final FaultPlan faults;
  private final HttpClient client;
  private final ScheduledExecutorService thread;
  private final Set<String> emitted = ConcurrentHashMap.newKeySet();
  private final AtomicLong eventIds = new AtomicLong();
  private final AtomicLong events = new AtomicLong();
  private final AtomicLong deliveries = new AtomicLong();
  private final AtomicLong attempts = new AtomicLong();
  private final AtomicLong delivered = new AtomicLong();
  private final AtomicLong abandoned = new AtomicLong();
  private final AtomicLong nextTarget = new AtomicLong();
  private Event parked;

  CallbackSender(SimWalletServer.Callbacks config, FaultPlan faults) {
    this.config = config;
    this.faults = faults;
    // One sending thread: the client's own tasks need no more than two threads beside it.
    this.client = BoundedHttp.client("sim-wallet-callbacks", config.requestTimeout(), 2);
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sim-wallet-callbacks");
              t.setDaemon(true);
              return t;
            });
  }

  /** One event; {@code body} holds the bytes every attempt sends and signs. */
  private record Event(String id, String key, byte[] body) {}

  /** Emits the event of a final state, once per (type, order number). Never blocks on delivery. */
  void emit(String type, String tradeOrderNo, String refundOrderNo) {
    String orderNo = refundOrderNo != null ? refundOrderNo : tradeOrderNo;
    String key = type + ":" + orderNo;
    if (!emitted.add(key)) {
      return;
    }
    events.incrementAndGet();
    String id = "evt_" + eventIds.incrementAndGet();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", id);
    body.put("type", type);
    body.put("tradeOrderNo", tradeOrderNo);
    body.put("refundOrderNo", refundOrderNo);
    Event event = new Event(id, key, StrictJson.write(body));
    CallbackFault fault = CallbackFault.pick(faults, type, orderNo);
    synchronized (this) {
      Event held = parked;
      if (fault == CallbackFault.OUT_OF_ORDER && held == null) {
        parked = event;
        schedule(() -> releaseParked(event), OUT_OF_ORDER_MAX_HOLD);
        return;
      }
      if (fault == CallbackFault.DELAYED) {
        deliver(event, faults.duration("callback.delay", key, DELAY_MIN, DELAY_MAX));
      } else {
        deliver(event, Duration.ZERO);
      }
      if (fault == CallbackFault.DUPLICATE) {
        deliver(
            event,
            faults.duration("callback.duplicate", key, DUPLICATE_GAP_MIN, DUPLICATE_GAP_MAX));
      }
      if (held != null) {
        // The held event goes out after this one: the receiver sees them out of order.
        parked = null;
        deliver(held, OUT_OF_ORDER_GAP);
      }
    }
  }

  private synchronized void releaseParked(Event event) {
    if (parked == event) {
      parked = null;
      deliver(event, Duration.ZERO);
    }
  }

  private void deliver(Event event, Duration after) {
    deliveries.incrementAndGet();
    int first = (int) (nextTarget.getAndIncrement() % config.urls().size());
    schedule(() -> attempt(event, 1, first), after);
  }

  /**
   * One attempt of a delivery at the target {@code target}; a transport error or a 5xx sends the
   * next attempt to the next target, any other refusal retries the same one.
   */
  private void attempt(Event event, int n, int target) {
    attempts.incrementAndGet();
    byte[] body = event.body();
    HttpRequest request =
        HttpRequest.newBuilder(config.urls().get(target))
            .timeout(config.requestTimeout())
            .header("Content-Type", WireProtocol.JSON)
            .header(
                WebhookSignature.HEADER,
                WebhookSignature.sign(body, config.clock().instant(), config.secret()))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
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
    } else if (n >= config.maxAttempts()) {
      abandoned.incrementAndGet();
    } else {
      long factor = 1L << Math.min(n - 1, 10);
      int next = targetDown ? (target + 1) % config.urls().size() : target;
      schedule(() -> attempt(event, n + 1, next), config.firstBackoff().multipliedBy(factor));
    }
  }

  private void schedule(Runnable task, Duration after) {
    try {
      thread.schedule(task, after.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closing) {
      // The server is closing: undelivered events are dropped, as a wallet going down drops them.
    }
  }

  SimWalletServer.CallbackStats stats() {
    return new SimWalletServer.CallbackStats(
        events.get(), deliveries.get(), attempts.get(), delivered.get(), abandoned.get());
  }

  @Override
  public void close() {
    thread.shutdownNow();
    try {
      thread.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
