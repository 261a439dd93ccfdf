package dev.clearway.core.flow.port;

import dev.clearway.core.flow.domain.GoalKey;
import java.time.Duration;
import java.util.Optional;

/**
 * A short lock per goal on the synchronous entry: a double click waits for the first request
 * instead of costing a second wallet call. Only a cost saver: when it cannot be had in time, the
 * caller goes on without it, and correctness rests on the database.
 */
public interface EntryLock {

  /** The held lock, to be closed when the synchronous call ends; empty if not had in time. */
  Optional<Held> tryLock(GoalKey goal, Duration wait);

  /** A held lock. */
  interface Held extends AutoCloseable {
    @Override
    void close();
  }

  EntryLock NONE = (goal, wait) -> Optional.empty();
}
