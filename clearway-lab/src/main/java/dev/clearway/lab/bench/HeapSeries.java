package dev.clearway.lab.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The service JVM's heap after a full collection at the end of each window of a soak: a thread
 * started when the measured time starts reads it every window, and the reading at the end of the
 * measured time closes the series. The least-squares slope of the readings against time says
 * whether the heap grows.
 */
final class HeapSeries {
  private final double windowSec;
  private final double durationSec;
  private final List<Long> bytes = new ArrayList<>();
  private Thread sampler;
  private long startNanos;

  HeapSeries(double windowSec, double durationSec) {
    this.windowSec = windowSec;
    this.durationSec = durationSec;
  }

  /** Starts reading at the end of each full window from now. */
  synchronized void start() {
    startNanos = System.nanoTime();
    sampler = new Thread(this::sample, "soak-heap");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** The reading at the end of the measured time: stops the windowed readings first. */
  void finish() {
    Thread running;
    synchronized (this) {
      running = sampler;
    }
    if (running != null) {
      running.interrupt();
      try {
        running.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    long last = ServiceJvm.heapAfterGc();
    synchronized (this) {
      bytes.add(last);
    }
  }

  private void sample() {
    // The window ending with the measured time is read by finish().
    for (int k = 1; k * windowSec <= durationSec - windowSec / 2; k++) {
      long due = startNanos + (long) (k * windowSec * 1e9);
      long wait = due - System.nanoTime();
      try {
        Thread.sleep(Math.max(0, wait / 1_000_000));
      } catch (InterruptedException e) {
        return;
      }
      long used = ServiceJvm.heapAfterGc();
      synchronized (this) {
        bytes.add(used);
      }
    }
  }

  /** The readings in MB, in order; the last one is at the end of the measured time. */
  synchronized List<Double> megabytes() {
    return bytes.stream().map(b -> b / 1048576.0).toList();
  }

  /**
   * The least-squares slope in MB per minute of the readings against the end time of each window
   * (the last one at the end of the measured time); 0 with fewer than two readings.
   */
  synchronized double slopeMbPerMin() {
    int n = bytes.size();
    if (n < 2) {
      return 0;
    }
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      double x = minuteOf(i, n);
      double y = bytes.get(i) / 1048576.0;
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    double d = n * sxx - sx * sx;
    return d == 0 ? 0 : (n * sxy - sx * sy) / d;
  }

  /** When reading {@code i} of {@code n} was taken, in minutes from the start. */
  private double minuteOf(int i, int n) {
    return (i == n - 1 ? durationSec : Math.min((i + 1) * windowSec, durationSec)) / 60;
  }
}
