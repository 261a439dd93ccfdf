package dev.clearway.core.engine;

import dev.clearway.core.port.WakeupScheduler;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * Delayed wake-ups inside the process: a delay queue drained by one thread that hands due flow ids
 * to a consumer. Lost on a crash by design; the scanner recovers what it loses.
 */
public final class InProcessWakeups implements WakeupScheduler, AutoCloseable {
  private final DelayQueue<Wakeup> queue = new DelayQueue<>();
  private final Clock clock;
  private final Thread drainer;
  private volatile boolean running = true;

  public InProcessWakeups(Clock clock, LongConsumer onDue) {
    this.clock = clock;
    this.drainer =
        new Thread(
            () -> {
              while (running) {
                try {
                  Wakeup w = queue.poll(100, TimeUnit.MILLISECONDS);
                  if (w != null) {
                    onDue.accept(w.flowId);
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                } catch (RuntimeException e) {
                  // a failed hand-off is a lost wake-up; the scanner covers it
                }
              }
            },
            "clearway-wakeups");
    drainer.setDaemon(true);
    drainer.start();
  }

  @Override
  public void schedule(long flowId, Instant at) {
    queue.add(new Wakeup(flowId, at.toEpochMilli(), clock));
  }

  @Override
  public void close() {
    running = false;
    drainer.interrupt();
  }

  private static final class Wakeup implements Delayed {
    final long flowId;
    final long atMillis;
    final Clock clock;

    Wakeup(long flowId, long atMillis, Clock clock) {
      this.flowId = flowId;
      this.atMillis = atMillis;
      this.clock = clock;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(atMillis - clock.millis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(atMillis, ((Wakeup) other).atMillis);
    }
  }
}
