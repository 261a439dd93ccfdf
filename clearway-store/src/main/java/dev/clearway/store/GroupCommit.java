package dev.clearway.store;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Group commit of single-row writes submitted by concurrent callers: while {@code maxInFlight}
 * groups are being written, further writes wait in a queue, and the next caller to find a free slot
 * writes the queued ones (its own first, up to {@code maxGroup}) in one statement and one commit.
 * Every caller gets its own write's result, or its own failure, and only after the commit that
 * holds its write: a caller alone writes at once, with the statement of a single write.
 *
 * <p>Rules: two writes of one row never share a group (the second waits for the next one), so each
 * write's result is the row it alone wrote; a group whose statement fails is written again write by
 * write, so one write's failure never undoes or fails the others.
 *
 * @param <W> a write
 * @param <R> its result
 */
final class GroupCommit<W, R> {

  /** The writes of one group, in one statement and one commit; the results in the writes' order. */
  @FunctionalInterface
  interface Group<W, R> {
    List<R> write(List<W> writes);
  }

  private final int maxInFlight;
  private final int maxGroup;
  private final Function<W, Object> row;
  private final Function<W, R> single;
  private final Group<W, R> group;
  private final Object lock = new Object();
  private final LinkedList<Pending<W, R>> queue = new LinkedList<>();
  private int inFlight;

  /**
   * @param maxInFlight groups written at once
   * @param maxGroup writes in one group at most
   * @param row the row a write changes: two writes of one row never share a group
   * @param single writes one write alone (a group of one, and each write of a failed group)
   * @param group writes several in one statement and one commit
   */
  GroupCommit(
      int maxInFlight,
      int maxGroup,
      Function<W, Object> row,
      Function<W, R> single,
      Group<W, R> group) {
    if (maxInFlight < 1 || maxGroup < 1) {
      throw new IllegalArgumentException("need at least one group in flight of at least one write");
    }
    this.maxInFlight = maxInFlight;
    this.maxGroup = maxGroup;
    this.row = row;
    this.single = single;
    this.group = group;
  }

  /** Writes {@code write}, alone or in a group, and returns its result once committed. */
  R submit(W write) {
    Pending<W, R> mine = new Pending<>(write);
    List<Pending<W, R>> taken;
    synchronized (lock) {
      queue.addLast(mine);
      while (true) {
        if (mine.done) {
          return mine.result();
        }
        if (!mine.taken && inFlight < maxInFlight) {
          inFlight++;
          taken = take(mine);
          break;
        }
        waitForGroup();
      }
    }
    try {
      write(taken);
    } finally {
      synchronized (lock) {
        inFlight--;
        lock.notifyAll();
      }
    }
    return mine.result();
  }

  /** The caller's own write first, then the oldest queued writes of other rows. */
  private List<Pending<W, R>> take(Pending<W, R> mine) {
    List<Pending<W, R>> taken = new ArrayList<>();
    Set<Object> rows = new HashSet<>();
    queue.remove(mine);
    mine.taken = true;
    taken.add(mine);
    rows.add(row.apply(mine.write));
    Iterator<Pending<W, R>> it = queue.iterator();
    while (it.hasNext() && taken.size() < maxGroup) {
      Pending<W, R> p = it.next();
      if (rows.add(row.apply(p.write))) {
        it.remove();
        p.taken = true;
        taken.add(p);
      }
    }
    return taken;
  }

  private void waitForGroup() {
    try {
      lock.wait();
    } catch (InterruptedException e) {
      // A write already queued may be taken by a group at any moment: keep waiting for its
      // result rather than return without knowing whether it was written.
      Thread.currentThread().interrupt();
      try {
        lock.wait(10);
      } catch (InterruptedException again) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void write(List<Pending<W, R>> taken) {
    if (taken.size() == 1) {
      writeAlone(taken.get(0));
      return;
    }
    List<R> results;
    try {
      results = group.write(taken.stream().map(p -> p.write).toList());
    } catch (RuntimeException | Error groupFailed) {
      // One write may have made the whole statement fail (a guard, a deadlock): write each
      // alone, so that only that write fails.
      taken.forEach(this::writeAlone);
      return;
    }
    synchronized (lock) {
      for (int i = 0; i < taken.size(); i++) {
        taken.get(i).complete(results.get(i), null);
      }
    }
  }

  private void writeAlone(Pending<W, R> p) {
    R result = null;
    Throwable failure = null;
    try {
      result = single.apply(p.write);
    } catch (RuntimeException | Error e) {
      failure = e;
    }
    synchronized (lock) {
      p.complete(result, failure);
    }
  }

  /** One submitted write; its fields are guarded by the lock. */
  private static final class Pending<W, R> {
    private final W write;
    private boolean taken;
    private boolean done;
    private R result;
    private Throwable failure;

    Pending(W write) {
      this.write = write;
    }

    void complete(R result, Throwable failure) {
      this.result = result;
      this.failure = failure;
      this.done = true;
    }

    R result() {
      if (failure instanceof RuntimeException e) {
        throw e;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      return result;
    }
  }
}
