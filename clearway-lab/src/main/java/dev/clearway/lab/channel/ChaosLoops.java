package dev.clearway.lab.channel;

import dev.clearway.core.flow.port.WorkerFailures;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;

/**
 * The background loops of the chaos run (recovery workers, compensation, the closer), each on its
 * own daemon thread, all stopped together.
 */
final class ChaosLoops {

  private final WorkerFailures failures = WorkerFailures.systemLogger();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();

  /** Starts {@code round} in a loop, pausing 20 ms after a round with no work. */
  void start(String name, IntSupplier round) {
    start(name, round, 20);
  }

  /**
   * Starts {@code round} in a loop until stopped, pausing {@code idleMillis} after a round with no
   * work (one that answered 0 or threw).
   */
  void start(String name, IntSupplier round, long idleMillis) {
    Thread t =
        new Thread(
            () -> {
              while (!stop.get()) {
                int n;
                try {
                  n = round.getAsInt();
                } catch (RuntimeException e) {
                  failures.failed("chaos-" + name, e);
                  n = 0;
                }
                if (n == 0) {
                  try {
                    Thread.sleep(idleMillis);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            },
            "chaos-" + name);
    t.setDaemon(true);
    t.start();
    threads.add(t);
  }

  /** Asks every loop to stop after its current round. */
  void stop() {
    stop.set(true);
  }

  /** Waits for every loop to end. */
  void join() throws InterruptedException {
    for (Thread t : threads) {
      t.join();
    }
  }
}
