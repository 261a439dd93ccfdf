package dev.clearway.core.channel.policy;

import java.time.Instant;
import java.util.List;

/**
 * The recorded attempts a dry run replays (port; the JDBC implementation is in clearway-store).
 * Read page by page, never all at once, so a dry run over a week of attempts holds one page in
 * memory, not the week.
 */
public interface RecordedHistory {

  /**
   * Opens one consistent read of the attempts created at or after {@code from}: its end and every
   * page come from the same snapshot, so attempts written while the read runs change nothing in it.
   * The caller closes it.
   */
  Reading open(Instant from);

  /** One consistent read of recorded history. */
  interface Reading extends AutoCloseable {

    /**
     * The end of this history: the latest {@code createdAt} or {@code resolvedAt} among all its
     * attempts (null when there are none). Known before the first page, so that each attempt can be
     * judged as it is read.
     */
    Instant asOf();

    /**
     * The next at most {@code limit} attempts, oldest first ({@code createdAt}, then id), after the
     * last one this read returned; empty once every attempt was read.
     *
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    List<RecordedAttempt> next(int limit);

    @Override
    void close();
  }
}
