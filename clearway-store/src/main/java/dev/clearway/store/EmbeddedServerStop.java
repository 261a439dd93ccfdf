package dev.clearway.store;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Stops an embedded PostgreSQL server once: when its database is closed, or when the JVM shuts
 * down. On shutdown, an owner that shuts down in order (stops taking payments, lets open flows
 * settle, stops its workers, then closes the database) keeps its server until it has closed it, for
 * at most its grace; any other server stops at once, so no server outlives the JVM that started it.
 */
final class EmbeddedServerStop {
  private final EmbeddedPostgres server;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final CountDownLatch closedByOwner = new CountDownLatch(1);
  private volatile Duration ownerGrace = Duration.ZERO;

  private EmbeddedServerStop(EmbeddedPostgres server) {
    this.server = server;
  }

  /** Stops {@code server} on the JVM's shutdown unless it was stopped before. */
  static EmbeddedServerStop register(EmbeddedPostgres server) {
    EmbeddedServerStop stop = new EmbeddedServerStop(server);
    Runtime.getRuntime()
        .addShutdownHook(new Thread(stop::onShutdown, "clearway-embedded-postgres-stop"));
    return stop;
  }

  /** On shutdown, waits up to {@code grace} for the owner's {@link #stop} before stopping. */
  void ownerClosesOnShutdown(Duration grace) {
    ownerGrace = grace;
  }

  /** Stops the server (once; later calls do nothing). */
  void stop() {
    closedByOwner.countDown();
    if (stopped.compareAndSet(false, true)) {
      try {
        server.close();
      } catch (IOException e) {
        throw new UncheckedIOException("stop embedded PostgreSQL", e);
      }
    }
  }

  private void onShutdown() {
    try {
      closedByOwner.await(ownerGrace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (stopped.compareAndSet(false, true)) {
      try {
        server.close();
      } catch (IOException e) {
        // The JVM is exiting: nothing is left to tell.
      }
    }
  }
}
