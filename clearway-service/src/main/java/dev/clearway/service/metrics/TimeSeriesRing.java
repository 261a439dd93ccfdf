package dev.clearway.service.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * The last {@code capacity} steps, oldest first: a fixed array written round, so an hour of samples
 * costs the same memory on the first day and the hundredth.
 */
public final class TimeSeriesRing {
  private final MinuteSample[] slots;
  private int next;
  private int size;

  public TimeSeriesRing(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive");
    }
    this.slots = new MinuteSample[capacity];
  }

  /** Adds a step; the oldest one goes when the ring is full. */
  public synchronized void add(MinuteSample sample) {
    slots[next] = sample;
    next = (next + 1) % slots.length;
    size = Math.min(size + 1, slots.length);
  }

  /** The steps held, oldest first. */
  public synchronized List<MinuteSample> samples() {
    List<MinuteSample> out = new ArrayList<>(size);
    int first = (next - size + slots.length) % slots.length;
    for (int i = 0; i < size; i++) {
      out.add(slots[(first + i) % slots.length]);
    }
    return out;
  }
}
