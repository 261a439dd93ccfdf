package dev.clearway.core.flow.engine;

import dev.clearway.core.flow.domain.GoalKey;
import dev.clearway.core.flow.port.EntryLock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * {@link EntryLock} within one process. Locks are created per goal on demand and removed when no
 * one holds or waits for them, so the map stays as small as the number of goals in flight.
 */
public final class InProcessEntryLock implements EntryLock {
  private final ConcurrentHashMap<GoalKey, Entry> locks = new ConcurrentHashMap<>();

  private static final class Entry {
    final ReentrantLock lock = new ReentrantLock();
    int users;
  }

  @Override
  public Optional<Held> tryLock(GoalKey goal, Duration wait) {
    Entry entry =
        locks.compute(
            goal,
            (k, e) -> {
              Entry v = e == null ? new Entry() : e;
              v.users++;
              return v;
            });
    boolean locked = false;
    try {
      locked = entry.lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!locked) {
      leave(goal);
      return Optional.empty();
    }
    return Optional.of(
        () -> {
          entry.lock.unlock();
          leave(goal);
        });
  }

  private void leave(GoalKey goal) {
    locks.computeIfPresent(goal, (k, e) -> --e.users == 0 ? null : e);
  }

  /** Goals with a holder or a waiter (for tests and metrics). */
  public int size() {
    return locks.size();
  }
}
