package dev.clearway.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Work that falls due at an instant, kept in due order so that taking what is due costs what is
 * due, not what was ever scheduled. Ties keep their scheduling order.
 */
final class DueWork {
  private record Due(Instant at, long seq, Runnable work) {}

  private final PriorityQueue<Due> queue =
      new PriorityQueue<>(Comparator.comparing(Due::at).thenComparingLong(Due::seq));
  private long seq;

  synchronized void schedule(Instant at, Runnable work) {
    queue.add(new Due(at, seq++, work));
  }

  /** Removes and returns, in due order, the work due at {@code now} or earlier. */
  synchronized List<Runnable> takeDue(Instant now) {
    List<Runnable> due = new ArrayList<>();
    while (!queue.isEmpty() && !queue.peek().at().isAfter(now)) {
      due.add(queue.poll().work());
    }
    return due;
  }

  synchronized int pending() {
    return queue.size();
  }
}
