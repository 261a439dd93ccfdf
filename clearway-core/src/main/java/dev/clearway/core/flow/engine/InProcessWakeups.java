package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.port.WakeupScheduler;
import dev.clearway.core.runtime.QueueLimits;
import dev.clearway.core.runtime.Supervision;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongConsumer;

/**
 * Delayed wake-ups inside the process, drained by one thread that hands due flow ids to a consumer.
 * Lost on a crash by design; the scanner recovers what it loses.
 *
 * <p>Bounded, one entry per flow: a flow already waiting keeps its earliest due time (an early
 * wake-up only advances the flow early; the step it runs schedules the next one), and a new flow
 * that finds the queue full is dropped and counted (its row stays due, so the scanner finds it). A
 * consumer that throws is reported with its cause; the drainer goes on.
 */
public final class InProcessWakeups implements WakeupScheduler, AutoCloseable {
  private static final long MAX_WAIT_MILLIS = 100;

  /**
   * @param name thread name, and the pool and loop reports name ({@code flow-wakeups})
   * @param capacity wake-ups held at once
   */
  public record Settings(String name, int capacity, Supervision supervision) {
    public Settings {
      if (capacity < 1) {
        throw new IllegalArgumentException("wake-up capacity must be at least 1");
      }
    }
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final NavigableSet<Wakeup> byTime = new TreeSet<>();
  private final Map<Long, Wakeup> byFlow = new HashMap<>();
  private final Clock clock;
  private final LongConsumer onDue;
  private final Settings settings;
  private final Thread drainer;
  private volatile boolean running = true;

  public InProcessWakeups(Clock clock, LongConsumer onDue) {
    this(
        clock,
        onDue,
        new Settings("flow-wakeups", QueueLimits.DEFAULT_WAKEUPS, Supervision.defaults()));
  }

  public InProcessWakeups(Clock clock, LongConsumer onDue, Settings settings) {
    this.clock = clock;
    this.onDue = onDue;
    this.settings = settings;
    this.drainer = new Thread(this::drain, "clearway-" + settings.name());
    drainer.setDaemon(true);
    drainer.start();
  }

  @Override
  public void schedule(long flowId, Instant at) {
    Wakeup next = new Wakeup(flowId, at.toEpochMilli());
    boolean full = false;
    lock.lock();
    try {
      Wakeup held = byFlow.get(flowId);
      if (held != null) {
        if (held.atMillis <= next.atMillis) {
          return; // the flow is woken earlier already
        }
        byTime.remove(held);
      } else if (byFlow.size() >= settings.capacity()) {
        full = true;
      }
      if (!full) {
        byFlow.put(flowId, next);
        byTime.add(next);
        if (byTime.first() == next) {
          changed.signal();
        }
      }
    } finally {
      lock.unlock();
    }
    if (full) {
      settings.supervision().overload().rejected(settings.name());
    }
  }

  /** Wake-ups held now (one per flow). */
  public int size() {
    lock.lock();
    try {
      return byFlow.size();
    } finally {
      lock.unlock();
    }
  }

  /** When the flow's wake-up is due, if one is held. */
  public Optional<Instant> dueTime(long flowId) {
    lock.lock();
    try {
      Wakeup w = byFlow.get(flowId);
      return w == null ? Optional.empty() : Optional.of(Instant.ofEpochMilli(w.atMillis));
    } finally {
      lock.unlock();
    }
  }

  private void drain() {
    while (running) {
      long due;
      try {
        due = takeDue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (due < 0) {
        continue;
      }
      try {
        onDue.accept(due);
      } catch (Throwable e) {
        // A failed hand-off is a lost wake-up; the scanner covers it. Reported, not swallowed.
        settings.supervision().failures().failed(settings.name(), e);
      }
    }
  }

  /** The next due flow id, or -1 after waiting at most {@link #MAX_WAIT_MILLIS}. */
  private long takeDue() throws InterruptedException {
    lock.lockInterruptibly();
    try {
      if (byTime.isEmpty()) {
        changed.await(MAX_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        return -1;
      }
      Wakeup first = byTime.first();
      long delay = first.atMillis - clock.millis();
      if (delay > 0) {
        // Bounded so that a clock that jumps (a test clock) is noticed within the bound.
        changed.await(Math.min(delay, MAX_WAIT_MILLIS), TimeUnit.MILLISECONDS);
        return -1;
      }
      byTime.pollFirst();
      byFlow.remove(first.flowId);
      return first.flowId;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    running = false;
    drainer.interrupt();
  }

  private record Wakeup(long flowId, long atMillis) implements Comparable<Wakeup> {
    @Override
    public int compareTo(Wakeup other) {
      int byAt = Long.compare(atMillis, other.atMillis);
      return byAt != 0 ? byAt : Long.compare(flowId, other.flowId);
    }
  }
}
