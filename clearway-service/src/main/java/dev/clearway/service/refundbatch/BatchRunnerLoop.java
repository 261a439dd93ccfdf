package dev.clearway.service.refundbatch;

import dev.clearway.core.refundbatch.engine.BatchRunner;
import dev.clearway.core.refundbatch.engine.BatchRunner.RunEnd;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The node's batch runner thread: claims due batches one after the other and, when none is due,
 * waits {@code pollInterval}. Every node runs one; the claim ({@code FOR UPDATE SKIP LOCKED} and
 * the lease) gives each batch to one runner at a time. On stop the thread ends; a batch it held
 * waits for its lease to expire and is claimed again.
 */
public final class BatchRunnerLoop implements SmartLifecycle {
  private static final Logger log = LoggerFactory.getLogger(BatchRunnerLoop.class);

  private final BatchRunner runner;
  private final Duration pollInterval;
  private volatile boolean running;
  private Thread thread;

  public BatchRunnerLoop(BatchRunner runner, Duration pollInterval) {
    this.runner = runner;
    this.pollInterval = pollInterval;
  }

  @Override
  public synchronized void start() {
    running = true;
    thread = new Thread(this::loop, "clearway-refund-batches");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (running) {
      RunEnd end;
      try {
        end = runner.runOnce();
      } catch (RuntimeException e) {
        // The database or the refund engine failed: the lease expires and a runner claims again.
        log.warn("refund batch run failed: {}", e.getClass().getName());
        end = RunEnd.NONE_DUE;
      }
      if (end != RunEnd.DONE && end != RunEnd.WAITING_FOR_ORDERS && !pause()) {
        return;
      }
    }
  }

  private boolean pause() {
    try {
      Thread.sleep(pollInterval.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public synchronized void stop() {
    running = false;
    if (thread != null) {
      thread.interrupt();
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
