package dev.clearway.lab.chaos;

import dev.clearway.core.retention.RetentionEvents;
import dev.clearway.core.retention.RetentionKind;
import dev.clearway.core.retention.RetentionPolicy;
import dev.clearway.core.retention.RetentionRun;
import dev.clearway.store.retention.JdbcRetentionLease;
import dev.clearway.store.retention.JdbcRetentionStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;

/**
 * The retention job running while a chaos run drives payments: every {@code every} it moves every
 * flow that ended more than a millisecond ago to the archive (in batches of 50), through the same
 * leased {@link RetentionRun} as the service. Goals keep receiving attempts meanwhile, so creation
 * must count the archived attempts and answer a done goal from the archive.
 */
final class MidRunArchiver implements AutoCloseable {
  private final RetentionRun run;
  private final Duration every;
  private final AtomicLong archived = new AtomicLong();
  private final AtomicLong runs = new AtomicLong();
  private final Thread thread;
  private volatile boolean closing;

  MidRunArchiver(DataSource dataSource, Duration every, Clock clock) {
    this.every = every;
    RetentionPolicy policy =
        RetentionPolicy.defaults()
            .withAge(RetentionKind.FLOW_ARCHIVE, Duration.ofMillis(1))
            .withBatches(50, 1_000);
    RetentionEvents count =
        new RetentionEvents() {
          @Override
          public void removed(RetentionKind kind, int rows) {
            if (kind == RetentionKind.FLOW_ARCHIVE) {
              archived.addAndGet(rows);
            }
          }

          @Override
          public void failed(RetentionKind kind, RuntimeException error) {
            System.err.println("mid-run archive batch failed: " + error.getMessage());
          }
        };
    this.run =
        new RetentionRun(
            new JdbcRetentionStore(dataSource),
            new JdbcRetentionLease(dataSource),
            policy,
            count,
            clock);
    this.thread = new Thread(this::loop, "chaos-archiver");
    thread.setDaemon(true);
  }

  MidRunArchiver start() {
    thread.start();
    return this;
  }

  private void loop() {
    while (!closing && !Thread.currentThread().isInterrupted()) {
      try {
        Thread.sleep(every.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      try {
        if (run.runOnce("chaos-archiver", Duration.ofMinutes(1)).ran()) {
          runs.incrementAndGet();
        }
      } catch (RuntimeException e) {
        if (closing || Thread.currentThread().isInterrupted()) {
          // Closed mid-run: the run's own lease expires; nothing is left to report.
          return;
        }
        System.err.println("mid-run archive run failed: " + e.getMessage());
      }
    }
  }

  long archived() {
    return archived.get();
  }

  long runs() {
    return runs.get();
  }

  @Override
  public void close() {
    closing = true;
    thread.interrupt();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
