package dev.clearway.service.retention;

import dev.clearway.core.retention.RetentionReport;
import dev.clearway.core.retention.RetentionRun;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link RetentionRun} every interval on one daemon thread. Every node schedules it; the lease
 * row lets one node at a time do the work. A failed run is logged and the next one goes on.
 */
public final class RetentionJob implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RetentionJob.class);

  private final RetentionRun run;
  private final String owner;
  private final Duration lease;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clearway-retention");
            t.setDaemon(true);
            return t;
          });

  RetentionJob(RetentionRun run, String owner, Duration lease) {
    this.run = run;
    this.owner = owner;
    this.lease = lease;
  }

  RetentionJob start(Duration interval) {
    timer.scheduleWithFixedDelay(
        this::runQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** One run now, on the caller's thread (tests, operators). */
  public RetentionReport runNow() {
    return run.runOnce(owner, lease);
  }

  private void runQuietly() {
    try {
      RetentionReport report = runNow();
      if (report.ran()) {
        log.info("retention run removed {}", report.removed());
      }
    } catch (RuntimeException e) {
      log.warn("retention run failed: {}", e.getClass().getName());
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
