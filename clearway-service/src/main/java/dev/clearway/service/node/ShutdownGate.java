package dev.clearway.service.node;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The first thing to stop when the node shuts down (SIGTERM, context close): from then on new
 * payments are refused ({@code 503 shutting_down}) while the web server still answers, and the gate
 * waits up to the grace period ({@code clearway.shutdown.grace}, default 20 s) for the payment
 * requests already inside to finish. Then Spring's graceful web shutdown stops the server, the
 * engines stop their workers, and {@code ClearwayNode} releases the leases this node still holds.
 */
public final class ShutdownGate implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(ShutdownGate.class);

  private final Duration grace;
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicBoolean closing = new AtomicBoolean();
  private final AtomicInteger inside = new AtomicInteger();
  private final Object drained = new Object();

  public ShutdownGate(Duration grace) {
    this.grace = grace;
  }

  /** A payment request inside the gate; close it when the request is answered. */
  public interface Pass extends AutoCloseable {
    @Override
    void close();
  }

  /** Whether the node is shutting down and refuses new payments. */
  public boolean closing() {
    return closing.get();
  }

  /** Lets a request in, or returns null when the node is shutting down. */
  public Pass enter() {
    inside.incrementAndGet();
    if (closing.get()) {
      leave();
      return null;
    }
    return this::leave;
  }

  private void leave() {
    if (inside.decrementAndGet() == 0) {
      synchronized (drained) {
        drained.notifyAll();
      }
    }
  }

  @Override
  public void start() {
    running.set(true);
  }

  /** Refuses new payments, then waits for the ones inside, at most the grace period. */
  @Override
  public void stop() {
    closing.set(true);
    long deadline = System.nanoTime() + grace.toNanos();
    synchronized (drained) {
      while (inside.get() > 0 && System.nanoTime() < deadline) {
        try {
          drained.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    if (inside.get() > 0) {
      log.warn("shutdown grace {} passed with {} payment requests still inside", grace, inside);
    }
    running.set(false);
  }

  @Override
  public boolean isRunning() {
    return running.get();
  }

  /** Stops before everything else, the web server included. */
  @Override
  public int getPhase() {
    return Integer.MAX_VALUE;
  }
}
